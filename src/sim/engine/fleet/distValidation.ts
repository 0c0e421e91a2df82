/**
 * Checks a scenario file's distribution objects (fleet/dist.ts's `Dist`) field by field, into the scenario's
 * validator, so a bad one is reported with its path before the run. Apart from dist.ts because that module samples
 * distributions already known to be well formed and holds the presets; this one reads untrusted JSON.
 */
import { isObj, type SchemaValidator } from './schemaValidator';

/** The most parallel calls one step may wait for (TraceLab's p99 is 4 a round). */
export const MAX_PARALLEL_CALLS = 64;

/** Problems with a distribution at `path`, into the scenario's validator. */
export function validateDist(v: SchemaValidator, d: unknown, path: string): void {
  if (!isObj(d))
    return v.err(path, 'must be a distribution object such as {"kind":"lognormal","median":1,"sigma":0.5}');
  const num = (k: string, opts: { gt?: number; min?: number } = {}) =>
    v.num(d, k, path, { required: true, ...opts });
  const bound = (k: string) => v.num(d, k, path);
  switch (d.kind) {
    case 'constant':
      num('value');
      break;
    case 'uniform':
      num('min');
      num('max');
      if (typeof d.min === 'number' && typeof d.max === 'number' && d.max < d.min)
        v.err(`${path}.max`, 'must be ≥ min');
      break;
    case 'exponential':
      num('mean', { gt: 0 });
      bound('min');
      bound('max');
      break;
    case 'lognormal':
      num('median', { gt: 0 });
      num('sigma', { min: 0 });
      bound('min');
      bound('max');
      break;
    case 'normal':
      num('mean');
      num('sd', { min: 0 });
      bound('min');
      bound('max');
      break;
    case 'choice':
      if (
        !Array.isArray(d.values) ||
        d.values.length === 0 ||
        !d.values.every((x) => typeof x === 'number' && Number.isFinite(x))
      )
        v.err(`${path}.values`, 'must be a non-empty array of numbers');
      if (d.weights !== undefined) {
        if (
          !Array.isArray(d.weights) ||
          !d.weights.every((x) => typeof x === 'number' && x >= 0) ||
          (Array.isArray(d.values) && d.weights.length !== d.values.length)
        )
          v.err(`${path}.weights`, 'must be non-negative numbers, one per value');
      }
      break;
    case 'mixture':
      if (!Array.isArray(d.components) || d.components.length === 0) {
        v.err(`${path}.components`, 'must be a non-empty array of {weight, dist}');
        break;
      }
      d.components.forEach((c: unknown, i: number) => {
        const cc = isObj(c) ? c : null;
        if (!cc || typeof cc.weight !== 'number' || !(cc.weight >= 0))
          v.err(`${path}.components[${i}].weight`, 'must be a number ≥ 0');
        validateDist(v, cc?.dist, `${path}.components[${i}].dist`);
      });
      break;
    case 'parallel': {
      // The closed forms (lessons' toolLatency.ts) weigh F(t)^n by P(n calls), so the count is listed outright.
      const c = isObj(d.calls) ? d.calls : null;
      const counts = c?.kind === 'constant' ? [c.value] : c?.kind === 'choice' ? c.values : null;
      if (
        !Array.isArray(counts) ||
        !counts.every((n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_PARALLEL_CALLS)
      )
        v.err(
          `${path}.calls`,
          `must be a count of calls: {"kind":"constant","value":n} or {"kind":"choice","values":[…],"weights":[…]} of whole numbers from 1 to ${MAX_PARALLEL_CALLS}`,
        );
      else validateDist(v, c, `${path}.calls`);
      validateDist(v, d.each, `${path}.each`);
      break;
    }
    default:
      v.err(
        `${path}.kind`,
        `must be one of constant, uniform, exponential, lognormal, normal, choice, mixture, parallel (got ${JSON.stringify(d.kind)})`,
      );
  }
}
