/** Bench suites, in the order they run. Each prints its own figures. */
import { footprintSuite } from './footprint';
import { traceStatsSuite } from './traceStats';
import { fleetSuite } from './fleet';
import { browserSuite } from './browser';
import { animationsSuite } from './animations';

export interface BenchSuite {
  name: string;
  description: string;
  run(): Promise<void> | void;
}

export const SUITES: readonly BenchSuite[] = [
  footprintSuite,
  traceStatsSuite,
  fleetSuite,
  browserSuite,
  animationsSuite,
];
