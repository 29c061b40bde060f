/**
 * Upper bounds (ms) of the latency histogram's buckets: a healthy panel answers in tens of milliseconds, the request
 * timeout is at most 60 s.
 */
export const LATENCY_BUCKETS_MS = [10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000] as const;

export interface LatencyHistogram {
  readonly bucketsMs: readonly number[];
  /** Answers at or below each bound, cumulative (Prometheus' `le`); every answer counts in `count`. */
  readonly cumulative: readonly number[];
  readonly sumMs: number;
  readonly count: number;
}

/**
 * Latency of the panel's answers: the recent ones for `bridge status`'s percentiles, and every answer since the
 * start counted in buckets, because a scraper computes its own rates and quantiles from counters that only grow.
 */
export class LatencyStats {
  private readonly recent: number[] = [];
  private last: number | undefined;
  private lastAnswerAt: number | undefined;
  private readonly perBucket = LATENCY_BUCKETS_MS.map(() => 0);
  private sumMs = 0;
  private count = 0;

  constructor(private readonly keep = 100) {}

  record(latencyMs: number, at: number): void {
    this.last = latencyMs;
    this.lastAnswerAt = at;
    this.recent.push(latencyMs);
    if (this.recent.length > this.keep) this.recent.shift();
    const bucket = LATENCY_BUCKETS_MS.findIndex((bound) => latencyMs <= bound);
    if (bucket >= 0) this.perBucket[bucket] = (this.perBucket[bucket] ?? 0) + 1;
    this.sumMs += latencyMs;
    this.count += 1;
  }

  snapshot(): {
    lastMs: number | undefined;
    p50Ms: number | undefined;
    p99Ms: number | undefined;
    lastAnswerAt: number | undefined;
    histogram: LatencyHistogram;
  } {
    const sorted = [...this.recent].sort((a, b) => a - b);
    const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
    let running = 0;
    return {
      lastMs: this.last,
      p50Ms: sorted.length ? at(0.5) : undefined,
      p99Ms: sorted.length ? at(0.99) : undefined,
      lastAnswerAt: this.lastAnswerAt,
      histogram: {
        bucketsMs: LATENCY_BUCKETS_MS,
        cumulative: this.perBucket.map((n) => {
          running += n;
          return running;
        }),
        sumMs: this.sumMs,
        count: this.count,
      },
    };
  }
}
