/**
 * The "?" list (src/app/keyboard/keyboardHelp.ts) against the code that answers the keys: every key it lists is
 * pressed through that code and must do what its row says.
 */
import { describe, expect, it } from 'vitest';
import { KEYBOARD_HELP, keyCap, type KeySectionId } from '../src/app/keyboard/keyboardHelp';
import { presentKeyAction } from '../src/app/presentation/keys';
import { transportKeyAction } from '../src/widgets/kit/controls/useTransport';
import { stepIndex } from '../src/widgets/kit/charts/Readout';

const rows = (id: KeySectionId) => KEYBOARD_HELP.find((s) => s.id === id)!.rows;

describe('the keyboard list', () => {
  it('lists presentation keys that do what it says, on the page (a clicker’s keys also over a control)', () => {
    for (const row of rows('presentation'))
      for (const key of row.keys) {
        expect(presentKeyAction(key, 'page'), key).toBe(row.action);
        if (['PageDown', 'PageUp', 'b', '.', 'w', ','].includes(key))
          expect(presentKeyAction(key, 'control'), key).toBe(row.action);
      }
  });

  it('lists the animated pictures’ keys as the transport reads them', () => {
    for (const row of rows('animation'))
      for (const key of row.keys) {
        const action = transportKeyAction(key);
        expect(row.action === 'start-end' ? ['start', 'end'] : [row.action], key).toContain(action);
      }
  });

  it('lists the read-outs’ keys as a chart reads them (from point 5 of 100)', () => {
    const moved = (key: string) => stepIndex(key, 5, 100);
    const expected: Record<string, (key: string) => number | null> = {
      step: (k) => (k === 'ArrowRight' ? 6 : 4),
      tenth: (k) => (k === 'PageDown' ? 15 : 0),
      ends: (k) => (k === 'End' ? 99 : 0),
      clear: () => null,
    };
    for (const row of rows('readout'))
      for (const key of row.keys) expect(moved(key), key).toBe(expected[row.action](key));
  });

  it('writes every key as it is on the keyboard, and lists a key once a section', () => {
    expect(keyCap(' ')).toBe('Space');
    expect(keyCap('ArrowLeft')).toBe('←');
    expect(keyCap('b')).toBe('B');
    for (const section of KEYBOARD_HELP) {
      const keys = section.rows.flatMap((r) => r.keys);
      expect(new Set(keys).size, section.id).toBe(keys.length);
    }
  });
});
