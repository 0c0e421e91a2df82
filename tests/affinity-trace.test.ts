/**
 * The session list and per-session traces of lesson 07.02's replay (src/sim/lessons/affinityTrace.ts), on the
 * hand-written example of docs/traces.md: two agents and a chat session.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownBeforeTurns, listTraceSessions, sessionTraceText } from '../src/sim/lessons/affinityTrace';
import { readNative } from '../src/sim/engine/trace/native';

const EXAMPLE = readFileSync(new URL('../public/traces/example-agent.jsonl', import.meta.url), 'utf8');

describe('the sessions of a native trace', () => {
  it('lists them by turns, longest first, file order among equals, with their sums', () => {
    const turns = readNative(EXAMPLE).turns;
    const count = (id: string) => turns.filter((t) => t.session === id).length;
    const list = listTraceSessions(EXAMPLE);
    expect(list.totalSessions).toBe(new Set(turns.map((t) => t.session)).size);
    expect(list.turns).toBe(turns.length);
    const ids = list.sessions.map((s) => s.id);
    for (let i = 1; i < ids.length; i++) expect(count(ids[i - 1])).toBeGreaterThanOrEqual(count(ids[i]));
    for (const s of list.sessions) {
      const own = turns.filter((t) => t.session === s.id);
      expect(s.turns).toBe(own.length);
      expect(s.promptTokens).toBe(own.reduce((a, t) => a + t.inputTokens, 0));
      expect(s.firstPromptTokens).toBe(own[0].inputTokens);
    }
    expect(listTraceSessions(EXAMPLE, 1).sessions).toHaveLength(1);
  });

  it("a session's own trace reads back to the same prompts, with append where a prompt extends the last", () => {
    const list = listTraceSessions(EXAMPLE);
    const all = readNative(EXAMPLE).turns;
    list.sessions.forEach((s, i) => {
      const back = readNative(list.texts[i]).turns;
      const own = all.filter((t) => t.session === s.id);
      expect(back.map((t) => t.input)).toEqual(own.map((t) => t.input));
      expect(back.map((t) => t.output)).toEqual(own.map((t) => t.output));
      expect(back[0].t).toBe(0);
    });
    // Extension → append; a prompt that drops a segment → a full input.
    const turns = readNative(
      [
        '{"session":"a","t":0,"input":[{"id":"s","tokens":40},{"id":"q","tokens":8}],"output":{"id":"o0","tokens":4}}',
        '{"session":"a","t":1,"append":[{"id":"r","tokens":20}],"output":{"id":"o1","tokens":4}}',
        '{"session":"a","t":2,"input":[{"id":"s","tokens":40},{"id":"r","tokens":20}],"output":{"id":"o2","tokens":4}}',
      ].join('\n'),
    ).turns;
    const lines = sessionTraceText(turns)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[1].input).toBeDefined();
    expect(lines[2].append).toEqual([{ id: 'r', tokens: 20 }]);
    expect(lines[3].input).toHaveLength(2);
    // Known before: turn 1 finds turn 0's 40 + 8 + 4 − 1 = 51 → 48 (3 blocks of 16); turn 2 only "s": 32 of its
    // 40 tokens in whole blocks (block 2 mixes s and q in turn 0, s and r here).
    expect(knownBeforeTurns(turns, 16)).toEqual([0, 48, 32]);
  });

  it('refuses a Mooncake trace and a trace with no readable line, saying why', () => {
    expect(() =>
      listTraceSessions('{"timestamp":0,"input_length":5,"output_length":1,"hash_ids":[0]}'),
    ).toThrow(/Mooncake trace: its requests carry no session id/);
    expect(() => listTraceSessions('{"session":"a","t":0,"output":3}')).toThrow(
      /no line of the trace could be read \(1 malformed; the first: line 1: missing "input"/,
    );
  });
});
