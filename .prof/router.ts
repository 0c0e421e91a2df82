import { runRouterAnimation } from '../src/sim/lessons/routing/lab';
import { cacheRouterArgs, cacheRouterSchema } from '../src/widgets/cache-router/schema';
import { defaultValues } from '../src/state/paramSchema';
const v = defaultValues(cacheRouterSchema as never) as never;
const a = cacheRouterArgs(v) as never;
console.log(JSON.stringify(a));
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const r = await runRouterAnimation({ ...(a as object), sessionsPerS: 1.5 } as never);
  console.log('ms', (performance.now() - t0).toFixed(0), 'frames', r.frames.count, 'endS', r.endS, 'sessions', r.sessions);
}
