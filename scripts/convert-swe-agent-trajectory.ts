/**
 * Converts one SWE-agent trajectory (`.traj`, SWE-agent 1.0's JSON: `history`, `trajectory`, `replay_config`)
 * into the lab's native trace format (`sal-trace`, docs/traces.md): one line per model call, each prompt as
 * content segments with token counts from gpt-tokenizer (o200k_base, the encoding of gpt-4o, the model the
 * trajectory's config names).
 *
 *   npx tsx scripts/convert-swe-agent-trajectory.ts <file.traj> <tools.json> <out.jsonl>
 *
 * What each turn's prompt holds, as SWE-agent builds it (sweagent/agent/agents.py, history_processors.py):
 *  - the system message, the function-calling tool schemas (scripts/data/swe-agent-function-tools.json, built
 *    from the tool bundles the config lists; OpenAI renders them into the prompt in its own wording, so their
 *    count is that of their JSON, an approximation), the task (the first user message);
 *  - then, for each earlier step, the assistant message (its text plus the tool call's name and arguments) and
 *    the tool's observation;
 *  - the config's history processor, `last_n_observations` with n = 5, replaces every observation but the task and
 *    the last five with "Old environment output: (N lines omitted)". So the prompt is *not* a pure extension of
 *    the previous one: from turn 6 on, the observation six steps back changes, and every later token misses a
 *    prefix cache from there. Each elided observation is its own segment id, so the lab's hashing sees that.
 * The file holds two sessions: the prompts as sent (with the processor) and, for comparison, the same steps with
 * the full history (no processor). Chat-template tokens (a few per message) are not counted. Tool latencies are the trajectory's recorded
 * `execution_time` per step. Model time is not recorded (a replayed demonstration), so `t` advances by the tool
 * time only; the lab's sessions replay ignores `t` after the first turn anyway.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

interface ToolCall {
  function: { name: string; arguments: string };
}
interface HistoryItem {
  role: string;
  content: string | { type: string; text?: string }[];
  message_type?: string;
  tool_calls?: ToolCall[] | null;
  is_demo?: boolean;
}
interface Traj {
  history: HistoryItem[];
  trajectory: { action: string; execution_time?: string | number }[];
  replay_config?: string | { agent?: { history_processor?: { type: string; n: number } } };
}

const [trajPath, toolsPath, outPath] = process.argv.slice(2);
if (!trajPath || !toolsPath || !outPath) {
  console.error('usage: convert-swe-agent-trajectory.ts <file.traj> <tools.json> <out.jsonl>');
  process.exit(2);
}

const traj = JSON.parse(readFileSync(trajPath, 'utf8')) as Traj;
const tools = readFileSync(toolsPath, 'utf8');
const config = typeof traj.replay_config === 'string' ? JSON.parse(traj.replay_config) : traj.replay_config;
const processor = config?.agent?.history_processor as { type: string; n: number } | undefined;
const keepLast = processor?.type === 'last_n_observations' ? processor.n : Infinity;

const tokens = (s: string) => encode(s).length;
const text = (c: HistoryItem['content']) => (typeof c === 'string' ? c : c.map((p) => p.text ?? '').join(''));
/** Python's str.splitlines() count (no trailing empty line). */
const lineCount = (s: string) => (s === '' ? 0 : s.replace(/(\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/).length);

const h = traj.history;
const system = h.find((m) => m.role === 'system');
const task = h.find((m) => m.role === 'user');
if (!system || !task) throw new Error('the trajectory has no system or first user message');
const assistants = h.filter((m) => m.role === 'assistant');
const observations = h.filter((m) => m.role === 'tool' || (m.role === 'user' && m !== task));
if (assistants.length !== traj.trajectory.length)
  throw new Error(`${assistants.length} assistant messages but ${traj.trajectory.length} steps`);

const outputTokens = assistants.map(
  (m) =>
    tokens(text(m.content)) +
    (m.tool_calls ?? []).reduce((s, c) => s + tokens(c.function.name) + tokens(c.function.arguments), 0),
);
const obsFull = observations.map((m) => tokens(text(m.content)));
const obsElided = observations.map((m) =>
  tokens(`Old environment output: (${lineCount(text(m.content))} lines omitted)`),
);
const shared = [
  { id: 'swe-agent/system', tokens: tokens(text(system.content)) },
  { id: 'swe-agent/tools', tokens: tokens(JSON.stringify(JSON.parse(tools))) },
];

/** The session's turns, with the config's history processor (as sent) or without it (the full history). */
function sessionLines(session: string, keepLast: number): string[] {
  const seg = (id: string, n: number) => ({ id: `${session}/${id}`, tokens: n });
  const lines: string[] = [];
  let t = 0;
  for (let k = 0; k < assistants.length; k++) {
    const input = [...shared, seg('task', tokens(text(task!.content)))];
    for (let j = 0; j < k; j++) {
      input.push(seg(`out${j}`, outputTokens[j]));
      // At turn k the prompt holds observations 0..k−1; all but the last `keepLast` are elided.
      const elided = j < k - keepLast;
      input.push(elided ? seg(`obs${j}-elided`, obsElided[j]) : seg(`obs${j}`, obsFull[j]));
    }
    const step = traj.trajectory[k];
    const durationS = Number(step.execution_time);
    const name = assistants[k].tool_calls?.[0]?.function.name ?? step.action.split(/\s/)[0];
    lines.push(
      JSON.stringify({
        session,
        turn: k,
        t: Math.round(t * 1000) / 1000,
        input,
        output: seg(`out${k}`, outputTokens[k]),
        tool: Number.isFinite(durationS) ? { name, durationS: Math.round(durationS * 1000) / 1000 } : null,
      }),
    );
    if (Number.isFinite(durationS)) t += durationS;
  }
  return lines;
}

const lines: string[] = [
  JSON.stringify({
    format: 'sal-trace',
    version: 1,
    blockSize: 16,
    description:
      'SWE-agent demonstration trajectory, marshmallow-code__marshmallow-1867 (function_calling_replace config), princeton-nlp/SWE-agent@0772c99, MIT. Tokens: gpt-tokenizer o200k_base. Two sessions: as sent (last_n_observations n=5) and the same steps with the full history. See public/traces/README.md.',
  }),
  ...sessionLines('swe-agent/marshmallow-1867', keepLast),
  ...sessionLines('swe-agent/marshmallow-1867/full-history', Infinity),
];
writeFileSync(outPath, lines.join('\n') + '\n');
console.log(
  `wrote ${outPath}: 2 sessions of ${assistants.length} turns, ${lines.join('\n').length + 1} bytes`,
);
