export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * Calls `onWake` at (or soon after) the earliest time asked for. The injected sleep cannot be cancelled, so only a
 * wake earlier than the pending one starts a new sleep, and a sleep that was overtaken ends without calling back:
 * a caller may ask thousands of times while holding a handful of timers.
 */
export class WakeTimer {
  private pendingAt = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly onWake: () => void,
  ) {}

  wakeAt(at: number): void {
    if (this.stopped || at >= this.pendingAt) return;
    this.pendingAt = at;
    void this.clock.sleep(Math.max(0, at - this.clock.now())).then(() => {
      if (this.stopped || this.pendingAt !== at) return;
      this.pendingAt = Number.POSITIVE_INFINITY;
      this.onWake();
    });
  }

  stop(): void {
    this.stopped = true;
  }
}
