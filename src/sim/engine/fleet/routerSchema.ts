/**
 * Validation of a scenario's `router` (and `router.view`) part: every field each router kind and view kind
 * accepts, with the message a user reads when one is wrong. scenarioValidation.ts calls it with the scenario's
 * validator.
 */
import { LLMD_PICKERS, LLMD_SCORER_TYPES } from './llmd';
import { ROUTER_KINDS } from './router';
import { CACHE_VIEW_KINDS } from './view';
import { isObj, type Obj, type SchemaValidator } from './schemaValidator';

export function validateRouter(v: SchemaValidator, r: Obj): void {
  v.oneOf(r, 'kind', 'router', ROUTER_KINDS, true);
  const common = ['kind', 'view'];
  if (r.kind === 'session-affinity') {
    v.known(r, 'router', [...common, 'overloadRatio', 'overloadMinTokens']);
    v.num(r, 'overloadRatio', 'router', { gt: 0 });
    v.num(r, 'overloadMinTokens', 'router', { min: 0 });
  } else if (r.kind === 'cache-aware') {
    v.known(r, 'router', [
      ...common,
      'scoring',
      'cacheThreshold',
      'balanceAbsThreshold',
      'balanceRelThreshold',
      'onMiss',
      'prefixWeight',
      'loadWeight',
      'kvWeight',
    ]);
    v.oneOf(r, 'scoring', 'router', ['threshold', 'weighted']);
    v.num(r, 'cacheThreshold', 'router', { min: 0, max: 1 });
    v.num(r, 'balanceAbsThreshold', 'router', { min: 0 });
    v.num(r, 'balanceRelThreshold', 'router', { min: 0 });
    v.oneOf(r, 'onMiss', 'router', ['least-load', 'smallest-tree']);
    for (const k of ['prefixWeight', 'loadWeight', 'kvWeight']) v.num(r, k, 'router', { min: 0 });
  } else if (r.kind === 'llm-d') {
    v.known(r, 'router', [...common, 'scorers', 'picker', 'tieBreak', 'metricsRefreshS']);
    v.oneOf(r, 'picker', 'router', LLMD_PICKERS);
    v.oneOf(r, 'tieBreak', 'router', ['random', 'order']);
    v.num(r, 'metricsRefreshS', 'router', { min: 0, max: 60 });
    validateScorers(v, r.scorers);
  } else if (typeof r.kind === 'string') v.known(r, 'router', common);
  const view = v.obj(r, 'view', 'router');
  if (view) validateView(v, view);
}

function validateScorers(v: SchemaValidator, x: unknown): void {
  if (x === undefined) return;
  if (!Array.isArray(x)) return v.err('router.scorers', 'must be a list of {type, weight} objects');
  x.forEach((s: unknown, i) => {
    const p = `router.scorers[${i}]`;
    if (!isObj(s)) return v.err(p, 'must be an object {type, weight}');
    v.oneOf(s, 'type', p, LLMD_SCORER_TYPES, true);
    const keys = ['type', 'weight'];
    if (s.type === 'precise-prefix-cache') keys.push('normalize');
    if (s.type === 'load-aware') keys.push('queueThreshold');
    v.known(s, p, keys);
    v.num(s, 'weight', p, { min: 0 });
    if (s.type === 'precise-prefix-cache') v.oneOf(s, 'normalize', p, ['absolute', 'min-max']);
    if (s.type === 'load-aware') v.num(s, 'queueThreshold', p, { gt: 0 });
  });
}

function validateView(v: SchemaValidator, view: Obj): void {
  const p = 'router.view';
  v.oneOf(view, 'kind', p, CACHE_VIEW_KINDS, true);
  switch (view.kind) {
    case 'delayed':
      v.known(view, p, ['kind', 'intervalS', 'tiers']);
      v.num(view, 'intervalS', p, { required: true, gt: 0 });
      break;
    case 'approximate':
      v.known(view, p, ['kind', 'capacityBlocks']);
      v.num(view, 'capacityBlocks', p, { min: 1, integer: true });
      break;
    case 'llm-d-approximate':
      v.known(view, p, ['kind', 'blockTokens', 'maxPrefixBlocks', 'lruCapacityPerServer', 'hashes']);
      v.oneOf(view, 'hashes', p, ['prompt', 'messages']);
      v.num(view, 'blockTokens', p, { min: 1, integer: true });
      v.num(view, 'maxPrefixBlocks', p, { min: 1, integer: true });
      if (view.lruCapacityPerServer !== 'auto')
        v.num(view, 'lruCapacityPerServer', p, { min: 1, integer: true });
      break;
    case 'precise':
      v.known(view, p, ['kind', 'latencyS', 'tiers']);
      v.num(view, 'latencyS', p, { min: 0 });
      break;
    case 'sglang-radix':
      v.known(view, p, ['kind', 'maxTreeSize', 'evictionIntervalS', 'charsPerToken']);
      v.num(view, 'maxTreeSize', p, { min: 1 });
      v.num(view, 'evictionIntervalS', p, { gt: 0 });
      v.num(view, 'charsPerToken', p, { gt: 0 });
      break;
    default:
      v.known(view, p, ['kind', 'tiers']);
  }
  if (view.tiers !== undefined) v.oneOf(view, 'tiers', p, ['hbm', 'local']);
}
