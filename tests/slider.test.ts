import { describe, expect, it } from 'vitest';
import { fromPosition, toPosition, valueAtMove } from '../src/widgets/kit/controls/Slider';
import type { NumberParam } from '../src/state/paramSchema';

const seconds: NumberParam = {
  kind: 'number',
  label: 'Pause',
  default: 12,
  min: 0.1,
  max: 3600,
  scale: 'log',
};
const tokens: NumberParam = {
  kind: 'number',
  label: 'New tokens',
  default: 1500,
  min: 10,
  max: 20000,
  step: 10,
  scale: 'log',
};

describe('log slider keyboard steps', () => {
  it('one arrow key always moves the value, in the direction pressed', () => {
    for (const spec of [seconds, tokens])
      for (let p = 1; p < 999; p += 7) {
        const v = fromPosition(spec, p);
        const pos = toPosition(spec, v);
        const up = valueAtMove(spec, v, pos + 1);
        const down = valueAtMove(spec, v, pos - 1);
        if (v < spec.max) expect(up, `${spec.label} up from ${v}`).toBeGreaterThan(v);
        if (v > spec.min) expect(down, `${spec.label} down from ${v}`).toBeLessThan(v);
      }
  });
  it('a plain drag still lands where the track says', () => {
    expect(valueAtMove(seconds, 12, 800)).toBe(fromPosition(seconds, 800));
  });
});
