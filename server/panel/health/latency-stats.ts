/** Latency of the panel's recent answers, for `bridge status`. */
export class LatencyStats {
  private readonly recent: number[] = [];
  private last: number | undefined;
  private lastAnswerAt: number | undefined;

  constructor(private readonly keep = 100) {}

  record(latencyMs: number, at: number): void {
    this.last = latencyMs;
    this.lastAnswerAt = at;
    this.recent.push(latencyMs);
    if (this.recent.length > this.keep) this.recent.shift();
  }

  snapshot(): {
    lastMs: number | undefined;
    p50Ms: number | undefined;
    p99Ms: number | undefined;
    lastAnswerAt: number | undefined;
  } {
    const sorted = [...this.recent].sort((a, b) => a - b);
    const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
    return {
      lastMs: this.last,
      p50Ms: sorted.length ? at(0.5) : undefined,
      p99Ms: sorted.length ? at(0.99) : undefined,
      lastAnswerAt: this.lastAnswerAt,
    };
  }
}
