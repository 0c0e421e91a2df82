/**
 * What some cache views know beyond "how long a prefix does each replica hold": the scorers and routers ask for
 * it when the view offers it, and fall back to the plain match otherwise. Kept apart from view.ts so the views
 * the systems build (views/*.ts) extend the interface without touching the exact and delayed views.
 */
import type { CacheView } from '../view';

/** A view that only ever indexes the first blocks of a prompt (llm-d's approximate scorer truncates). */
export interface WindowedView extends CacheView {
  /** Blocks of a `count`-block prompt the view could match at most: the prefix scorer's denominator. */
  window(count: number): number;
}

/** A view that keeps a size per replica (SGLang's radix tree counts characters per worker). */
export interface SizedView extends CacheView {
  /** The view's size for `replica` (SGLang: characters of its approximate tree). */
  sizeOf(replica: number): number;
}

/** A view that names one replica for the longest match the way its data structure does (SGLang's tree). */
export interface TenantOrderView extends CacheView {
  /** Among `candidates` (replicas matching `depth` blocks of `hashes`), the one the structure returns first. */
  firstAt(hashes: ArrayLike<number>, depth: number, candidates: readonly number[]): number;
}

export function isWindowed(v: CacheView): v is WindowedView {
  return typeof (v as Partial<WindowedView>).window === 'function';
}

export function isSized(v: CacheView): v is SizedView {
  return typeof (v as Partial<SizedView>).sizeOf === 'function';
}

export function hasTenantOrder(v: CacheView): v is TenantOrderView {
  return typeof (v as Partial<TenantOrderView>).firstAt === 'function';
}

/** Blocks of a `count`-block prompt a view can match: the whole prompt unless the view truncates it. */
export function matchWindow(v: CacheView, count: number): number {
  return isWindowed(v) ? v.window(count) : count;
}
