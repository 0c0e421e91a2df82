/**
 * A scenario's workload checked: generated sessions (their arrival and classes, each class's distributions, tool
 * latencies and structured output), a trace (its format, source and replay, and the block sizes a Mooncake trace
 * fixes), or a shared-prefix workload (sharedPrefix.ts). Part of validateScenario (scenarioValidation.ts).
 */
import { CLASS_DISTS } from './workload';
import { TOOL_LATENCY_PRESETS } from './dist';
import { validateDist } from './distValidation';
import { validateSharedPrefix } from './sharedPrefix';
import { isObj, SchemaValidator, type Obj } from './schemaValidator';

/** The scenario's `workload`, with the scenario for the fields a trace constrains elsewhere (kv's block sizes). */
export function validateWorkload(v: SchemaValidator, s: Obj): void {
  const w = v.obj(s, 'workload', '', true);
  if (!w) return;
  if (w.kind === 'shared-prefix') validateSharedPrefix(v, w);
  else if (w.kind === 'trace') {
    v.known(w, 'workload', [
      'kind',
      'format',
      'records',
      'text',
      'path',
      'replay',
      'traceBlockSize',
      'timeScale',
      'limit',
      'onError',
    ]);
    v.oneOf(w, 'format', 'workload', ['mooncake', 'native'], true);
    if (w.records === undefined && w.path === undefined && w.text === undefined)
      v.err('workload', 'a trace workload needs "records", "text" or "path"');
    if (w.records !== undefined && (!Array.isArray(w.records) || w.format !== 'mooncake'))
      v.err('workload.records', 'must be an array of Mooncake records (format "mooncake")');
    if (w.path !== undefined && typeof w.path !== 'string') v.err('workload.path', 'must be a string');
    if (w.text !== undefined && typeof w.text !== 'string')
      v.err('workload.text', 'must be a string (JSONL)');
    v.oneOf(w, 'replay', 'workload', ['timestamps', 'sessions']);
    if (w.replay === 'sessions' && w.format === 'mooncake')
      v.err('workload.replay', '"sessions" needs a native trace (Mooncake records have no sessions)');
    v.oneOf(w, 'onError', 'workload', ['skip', 'stop']);
    if (w.format === 'mooncake') {
      const tb = typeof w.traceBlockSize === 'number' ? w.traceBlockSize : 512;
      const kvb = isObj(s.kv) ? s.kv.blockSize : undefined;
      if (kvb !== undefined && kvb !== tb)
        v.err(
          'kv.blockSize',
          `must equal the Mooncake trace's block size ${tb} (its hash ids name ${tb}-token blocks)`,
        );
      const kvp = isObj(s.kv) ? s.kv.pageTokens : undefined;
      if (kvp !== undefined && kvp !== tb)
        v.err(
          'kv.pageTokens',
          `must equal the Mooncake trace's block size ${tb} (a hash id names one ${tb}-token block)`,
        );
    }
    v.num(w, 'traceBlockSize', 'workload', { min: 1, integer: true });
    v.num(w, 'timeScale', 'workload', { gt: 0 });
    v.num(w, 'limit', 'workload', { min: 1, integer: true });
  } else {
    v.known(w, 'workload', ['kind', 'arrival', 'sessions', 'classes']);
    if (w.kind !== undefined && w.kind !== 'sessions')
      v.err('workload.kind', 'must be "sessions", "trace" or "shared-prefix"');
    v.num(w, 'sessions', 'workload', { required: true, min: 1, integer: true, max: 16_000_000 });
    const a = v.obj(w, 'arrival', 'workload', true);
    if (a) {
      v.oneOf(a, 'kind', 'workload.arrival', ['poisson', 'closed'], true);
      if (a.kind === 'poisson') {
        v.known(a, 'workload.arrival', ['kind', 'sessionsPerS']);
        v.num(a, 'sessionsPerS', 'workload.arrival', { required: true, gt: 0 });
      } else if (a.kind === 'closed') {
        v.known(a, 'workload.arrival', ['kind', 'concurrency', 'rampS']);
        v.num(a, 'concurrency', 'workload.arrival', { required: true, min: 1, integer: true });
        v.num(a, 'rampS', 'workload.arrival', { min: 0 });
      }
    }
    if (!Array.isArray(w.classes) || w.classes.length === 0)
      v.err('workload.classes', 'must be a non-empty array of session classes');
    else {
      w.classes.forEach((c: unknown, i: number) => validateClass(v, c, `workload.classes[${i}]`));
      if (w.classes.length > 15) v.err('workload.classes', 'at most 15 classes');
    }
  }
}

function validateToolLatency(v: SchemaValidator, x: unknown, path: string): void {
  if (typeof x === 'string') {
    if (!(x in TOOL_LATENCY_PRESETS))
      v.err(path, `unknown preset "${x}" (presets: ${Object.keys(TOOL_LATENCY_PRESETS).join(', ')})`);
    return;
  }
  if (isObj(x) && 'mix' in x) {
    if (!Array.isArray(x.mix) || x.mix.length === 0)
      return v.err(`${path}.mix`, 'must be a non-empty array of {weight, tool}');
    x.mix.forEach((m: unknown, i: number) => {
      const p = `${path}.mix[${i}]`;
      if (!isObj(m)) return v.err(p, 'must be {weight, tool}');
      v.num(m, 'weight', p, { required: true, min: 0 });
      validateToolLatency(v, m.tool, `${p}.tool`);
    });
    return;
  }
  validateDist(v, x, path);
}

function validateStructured(v: SchemaValidator, so: Obj | undefined, path: string): void {
  if (!so) return;
  v.known(so, path, ['prob', 'schemas']);
  v.num(so, 'prob', path, { required: true, min: 0, max: 1 });
  v.num(so, 'schemas', path, { required: true, min: 1, integer: true });
}

/**
 * The fields a session class of `kind` may have: those of every class, its distributions (the generator's list,
 * CLASS_DISTS) and its own others.
 */
function classFields(kind: keyof typeof CLASS_DISTS, others: readonly string[]): readonly string[] {
  const d = CLASS_DISTS[kind];
  return ['kind', 'name', 'weight', 'apps', ...d.required, ...d.optional, ...others];
}

function validateClass(v: SchemaValidator, c: unknown, path: string): void {
  if (!isObj(c)) return v.err(path, 'must be a session class object');
  const dists = (keys: readonly string[], optional: readonly string[] = []) => {
    for (const k of keys) {
      if (c[k] === undefined) v.err(`${path}.${k}`, 'is required');
      else validateDist(v, c[k], `${path}.${k}`);
    }
    for (const k of optional) if (c[k] !== undefined) validateDist(v, c[k], `${path}.${k}`);
  };
  if (typeof c.name !== 'string' || !c.name) v.err(`${path}.name`, 'must be a non-empty string');
  v.num(c, 'weight', path, { min: 0 });
  v.num(c, 'apps', path, { min: 1, integer: true, max: 4095 });
  if (c.kind === 'agent') {
    v.known(c, path, classFields('agent', ['toolLatency', 'nonExtension', 'structuredOutput']));
    dists(CLASS_DISTS.agent.required, CLASS_DISTS.agent.optional);
    if (c.toolLatency === undefined) v.err(`${path}.toolLatency`, 'is required');
    else validateToolLatency(v, c.toolLatency, `${path}.toolLatency`);
    const ne = v.obj(c, 'nonExtension', path);
    if (ne) {
      const p = `${path}.nonExtension`;
      v.known(ne, p, ['compaction', 'timestampTokens', 'reorderToolsProb']);
      const comp = v.obj(ne, 'compaction', p);
      if (comp) {
        v.known(comp, `${p}.compaction`, ['thresholdTokens', 'summaryTokens']);
        v.num(comp, 'thresholdTokens', `${p}.compaction`, { required: true, gt: 0 });
        v.num(comp, 'summaryTokens', `${p}.compaction`, { required: true, min: 1, integer: true });
      }
      v.num(ne, 'timestampTokens', p, { min: 1, integer: true });
      v.num(ne, 'reorderToolsProb', p, { min: 0, max: 1 });
    }
    validateStructured(v, v.obj(c, 'structuredOutput', path), `${path}.structuredOutput`);
  } else if (c.kind === 'chat') {
    v.known(c, path, classFields('chat', ['structuredOutput']));
    dists(CLASS_DISTS.chat.required, CLASS_DISTS.chat.optional);
    validateStructured(v, v.obj(c, 'structuredOutput', path), `${path}.structuredOutput`);
  } else {
    v.err(`${path}.kind`, `must be "agent" or "chat" (got ${JSON.stringify(c.kind)})`);
  }
}
