/** Timing helpers shared by the benchmarks. */
import { performance } from 'node:perf_hooks';

/** The fastest of `runs` runs of `fn`, in milliseconds: the least disturbed by the rest of the machine. */
export function best(runs: number, fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}
