/**
 * The keyboard, as the lab answers it: what the "?" list shows (KeyboardHelp.tsx). Each row names the action the
 * code takes for its keys (presentation/keys.ts, the transport's transportKeyAction, the read-out's stepIndex);
 * tests/keyboard-help.test.ts presses every listed key through that code, so the list cannot drift from it.
 */

export type KeySectionId = 'anywhere' | 'animation' | 'readout' | 'presentation' | 'term';

export interface KeyRow {
  /** KeyboardEvent.key values, any of which does it. */
  keys: string[];
  does: string;
  /** What the section's code does with these keys (checked by the tests). */
  action: string;
}

export interface KeySection {
  id: KeySectionId;
  title: string;
  /** Where the keys work. */
  where: string;
  rows: KeyRow[];
}

export const KEYBOARD_HELP: readonly KeySection[] = [
  {
    id: 'anywhere',
    title: 'Anywhere',
    where: 'when you are not typing in a field',
    rows: [{ keys: ['?'], does: 'Show this list (Escape closes it)', action: 'help' }],
  },
  {
    id: 'animation',
    title: 'An animated picture',
    where: 'click the picture, or Tab to it; when presenting, the arrows move between screens',
    rows: [
      { keys: [' '], does: 'Play or pause', action: 'toggle' },
      { keys: ['ArrowLeft'], does: 'One step back', action: 'back' },
      { keys: ['ArrowRight'], does: 'One step forward', action: 'forward' },
      { keys: ['Home', 'End'], does: 'To the start, to the end', action: 'start-end' },
    ],
  },
  {
    id: 'readout',
    title: 'A chart with a read-out',
    where: 'Tab to the chart',
    rows: [
      { keys: ['ArrowLeft', 'ArrowRight'], does: 'The previous point, the next point', action: 'step' },
      { keys: ['PageUp', 'PageDown'], does: 'A tenth of the points back or forward', action: 'tenth' },
      { keys: ['Home', 'End'], does: 'The first point, the last point', action: 'ends' },
      { keys: ['Escape'], does: 'Hide the read-out', action: 'clear' },
    ],
  },
  {
    id: 'presentation',
    title: 'Presentation mode',
    where: 'the Present button, or ?present in the address; a clicker sends these keys',
    rows: [
      {
        keys: ['PageDown', 'ArrowRight'],
        does: 'The next screen (the rest of a tall widget first)',
        action: 'next',
      },
      {
        keys: ['PageUp', 'ArrowLeft'],
        does: 'The previous screen (a tall widget a window at a time)',
        action: 'prev',
      },
      { keys: ['Home'], does: 'The first screen', action: 'first' },
      { keys: ['End'], does: 'The last screen', action: 'last' },
      { keys: ['b', '.'], does: 'A black screen; any key brings the picture back', action: 'black' },
      { keys: ['w', ','], does: 'A white screen', action: 'white' },
      { keys: ['Escape'], does: 'Leave presentation mode', action: 'exit' },
    ],
  },
  {
    id: 'term',
    title: 'A glossary term',
    where: 'a word underlined with dots: Tab to it',
    rows: [
      { keys: ['Enter', ' '], does: 'Show its definition', action: 'open' },
      { keys: ['Escape'], does: 'Hide it', action: 'close' },
    ],
  },
];

const KEY_NAMES: Record<string, string> = {
  ' ': 'Space',
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  PageUp: 'Page Up',
  PageDown: 'Page Down',
  Escape: 'Esc',
};

/** How a key is written on a keyboard's cap. */
export function keyCap(key: string): string {
  return KEY_NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : key);
}
