import { describe, expect, it } from 'vitest';
import { LATENCY_BUCKETS_MS, LatencyStats } from '../../../../server/panel/panel-health.js';

describe('the panel latency histogram', () => {
  it('counts every answer since the start in cumulative buckets, beyond the recent ones the percentiles keep', () => {
    const stats = new LatencyStats(2);
    for (const ms of [5, 10, 11, 300, 120_000]) stats.record(ms, 0);
    const { histogram, p50Ms } = stats.snapshot();
    expect(p50Ms).toBe(300);
    expect(histogram.count).toBe(5);
    expect(histogram.sumMs).toBe(120_326);
    const at = (bound: number) => histogram.cumulative[LATENCY_BUCKETS_MS.indexOf(bound as never)];
    expect(at(10)).toBe(2);
    expect(at(25)).toBe(3);
    expect(at(250)).toBe(3);
    expect(at(500)).toBe(4);
    // Past the last bound an answer counts only in +Inf (the count).
    expect(at(60_000)).toBe(4);
  });
});
