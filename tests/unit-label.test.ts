import { describe, expect, it } from 'vitest';
import { labelAndUnit, labelNamesUnit } from '../src/widgets/kit/unitLabel';

describe("a control's label names its unit once", () => {
  it('drops a unit the label already names, in any case and number', () => {
    expect(labelAndUnit('Replicas', 'replicas')).toEqual(['Replicas', '']);
    expect(labelAndUnit('GPUs per replica (TP)', 'GPUs')).toEqual(['GPUs per replica (TP)', '']);
    expect(labelAndUnit('Agent sessions', 'sessions')).toEqual(['Agent sessions', '']);
  });
  it('adds one the label does not name, inside a closing parenthesis of its own', () => {
    expect(labelAndUnit('HBM for KV', 'GB')).toEqual(['HBM for KV', ' (GB)']);
    expect(labelAndUnit('TTFT target (p90)', 's')).toEqual(['TTFT target (p90', ', s)']);
    expect(labelAndUnit('Load threshold (cache-aware)', 'requests')).toEqual([
      'Load threshold (cache-aware',
      ', requests)',
    ]);
    expect(labelAndUnit('Seed', undefined)).toEqual(['Seed', '']);
  });
  it('never takes a symbol for a word the label contains', () => {
    expect(labelNamesUnit('Tool latency (s)', 's')).toBe(false);
    expect(labelNamesUnit('Sessions per second', 's')).toBe(false);
    expect(labelNamesUnit('Tokens', 'tokens')).toBe(true);
  });
});
