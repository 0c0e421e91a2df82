/** The worker's lazily loaded method groups (methodLoaders.ts) against the one static list (methods.ts). */
import { describe, expect, it } from 'vitest';
import { methods } from '../src/worker/methods';
import { loadMethod, METHOD_GROUPS } from '../src/worker/methodLoaders';

describe('worker method groups', () => {
  it('name every method exactly once', () => {
    const named = METHOD_GROUPS.flatMap((g) => g.names);
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual(Object.keys(methods).sort());
  });

  it('each group loads a module that has exactly its names, the same functions methods.ts lists', async () => {
    for (const g of METHOD_GROUPS) {
      const loaded = await g.load();
      expect(Object.keys(loaded).sort()).toEqual([...g.names].sort());
      for (const n of g.names) expect(loaded[n]).toBe(methods[n]);
    }
  });

  it('loadMethod finds a method by name and nothing for an unknown one', async () => {
    expect(await loadMethod('kvFootprint')).toBe(methods.kvFootprint);
    expect(await loadMethod('routerSweep')).toBe(methods.routerSweep);
    expect(await loadMethod('nope')).toBeUndefined();
  });
});
