export interface RateLimitWindow {
  limit: number;
  windowMs: number;
}

export interface RateLimitInfo {
  key: string;
  limit: number;
  /** Requests counted in this window, this one included. */
  used: number;
  remaining: number;
  /** Epoch ms at which the window ends. */
  resetTimeMs: number;
  exceeded: boolean;
}

const PRUNE_ABOVE = 1024;

/**
 * Fixed window per key, like express-rate-limit's MemoryStore: a client's window opens at its first request and
 * lasts `windowMs`; the first request after it opens the next one. Requests over the limit still count.
 */
export class FixedWindowRateLimiter {
  private windows = new Map<string, { hits: number; resetTimeMs: number }>();

  constructor(
    readonly policy: RateLimitWindow,
    private readonly now: () => number,
  ) {}

  hit(key: string): RateLimitInfo {
    const nowMs = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetTimeMs <= nowMs) {
      if (this.windows.size >= PRUNE_ABOVE) this.pruneExpired(nowMs);
      window = { hits: 0, resetTimeMs: nowMs + this.policy.windowMs };
      this.windows.set(key, window);
    }
    window.hits += 1;
    return this.infoOf(key, window);
  }

  /** The windows still open, without counting a request: what the dashboard's gauge shows. */
  openWindows(): RateLimitInfo[] {
    const nowMs = this.now();
    return [...this.windows]
      .filter(([, window]) => window.resetTimeMs > nowMs)
      .map(([key, window]) => this.infoOf(key, window));
  }

  private infoOf(key: string, window: { hits: number; resetTimeMs: number }): RateLimitInfo {
    const { limit } = this.policy;
    return {
      key,
      limit,
      used: window.hits,
      remaining: Math.max(limit - window.hits, 0),
      resetTimeMs: window.resetTimeMs,
      exceeded: window.hits > limit,
    };
  }

  reset(): void {
    this.windows.clear();
  }

  private pruneExpired(nowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetTimeMs <= nowMs) this.windows.delete(key);
  }
}
