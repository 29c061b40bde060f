// Bytes of JS heap allocated while some work runs, split the way the simulator's host-work meter splits CPU
// (Sim.hostWork: natives, routing, replication and frames are the host's; the rest, including what no one can
// place, is the bridge's). Node 20 has no allocation counter (v8.getHeapStatistics() gains total_allocated_bytes
// only in later versions), so the meter reads used_heap_size at each switch between the sides: between two
// collections the heap in use grows by exactly what was allocated. A stretch a collection ran in is worthless, so
// callers run a minor collection before the work and drop any sample a collection landed in (see gcSeen).
import type { PerformanceEntry } from 'node:perf_hooks';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { HostWork, WorkSide } from '../../sim/host/host-work.js';

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

export interface AllocationTotals {
  host: number;
  script: number;
  /** Stretches counted on each side: each carries the meter's own allocations (see overheadPerStretch). */
  hostStretches: number;
  scriptStretches: number;
}

/**
 * Wraps `meter.run` (the one place the simulator switches sides) on this instance so each switch also reads the
 * heap. Works while the host-work meter is started; `totals()` are cumulative from `install`.
 */
export function meterAllocations(meter: HostWork) {
  const original = meter.run.bind(meter);
  let side: WorkSide = 'script';
  let since = heapUsed();
  const totals: AllocationTotals = { host: 0, script: 0, hostStretches: 0, scriptStretches: 1 };
  const switchTo = (next: WorkSide) => {
    const now = heapUsed();
    totals[side] += now - since;
    since = now;
    side = next;
    if (next === 'host') totals.hostStretches += 1;
    else totals.scriptStretches += 1;
  };
  meter.run = <T>(next: WorkSide, fn: () => T): T => {
    if (!meter.enabled || next === side) return original(next, fn);
    const previous = side;
    switchTo(next);
    try {
      return original(next, fn);
    } finally {
      switchTo(previous);
    }
  };
  return {
    /** The totals so far, the current stretch included. */
    totals(): AllocationTotals {
      const now = heapUsed();
      return { ...totals, [side]: totals[side] + now - since };
    },
    uninstall() {
      meter.run = original;
    },
  };
}

/**
 * What one stretch of `allocations` (installed on `meter`, which is started) allocates by itself: the heap reading's
 * result object and the host-work meter's CPU reading. Measured on switches with nothing in them, after the work
 * measured (so the meter's code is as warm as it was then), the median of batches after ten to warm up.
 */
export function overheadPerStretch(
  meter: HostWork,
  allocations: ReturnType<typeof meterAllocations>,
  gcMinor: () => void,
): number {
  const perStretch: number[] = [];
  for (let batch = 0; batch < 25; batch++) {
    gcMinor();
    const before = allocations.totals();
    for (let index = 0; index < 200; index++) meter.run('host', () => undefined);
    const after = allocations.totals();
    const bytes = after.host - before.host + after.script - before.script;
    const stretches = after.hostStretches - before.hostStretches + after.scriptStretches - before.scriptStretches;
    if (batch >= 10 && bytes > 0) perStretch.push(bytes / stretches);
  }
  perStretch.sort((a, b) => a - b);
  return perStretch[Math.floor(perStretch.length / 2)] ?? 0;
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
