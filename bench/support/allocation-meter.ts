// Bytes of JS heap allocated while some work runs, all of it. Node 20 has no allocation counter
// (v8.getHeapStatistics() gains total_allocated_bytes only in later versions), so the heap in use is read before and
// after: between two collections it grows by what was allocated. A stretch a collection ran in is worthless, so
// callers run a minor collection before the work and drop any sample a collection landed in (see gcSeen). Whose work
// the bytes were is the sampling heap profiler's to say (heap-profile-split.ts).
import type { PerformanceEntry } from 'node:perf_hooks';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** JS heap in use now (every space, new and large objects included). */
export const heapUsed = (): number => getHeapStatistics().used_heap_size;

/** What one heapUsed() allocates after its reading (its result object): the median of back-to-back readings. */
export function bytesPerHeapReading(): number {
  const deltas: number[] = [];
  for (let index = 0; index < 2000; index++) {
    const first = heapUsed();
    deltas.push(heapUsed() - first);
  }
  const warm = deltas.slice(1000).sort((a, b) => a - b);
  return warm[Math.floor(warm.length / 2)] as number;
}

/** Garbage collections V8 reports from now until stop(), on performance.now()'s timeline. */
export function gcSeen() {
  const pauses: Array<{ start: number; duration: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEntry[])
      pauses.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async stop() {
      // Entries are delivered asynchronously: let the last ones arrive.
      await new Promise((resolve) => setImmediate(resolve));
      observer.disconnect();
      return pauses;
    },
  };
}
