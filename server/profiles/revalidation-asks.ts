/**
 * The server's own gate on `bridge:internal:revalidate`: one ask per player per refresh interval, on the monotonic
 * clock, whatever a client sends, so a script cannot spend the panel's budget by asking. The bridge's client counts
 * a profile's age from when it arrived, after the server took the ask, so its next ask never comes too early here.
 */
export class RevalidationAsks {
  private readonly admittedAt = new Map<number, number>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  /** Whether this player's ask is the first within the interval; counts it if so. */
  admit(src: number): boolean {
    const now = this.now();
    const last = this.admittedAt.get(src);
    if (last !== undefined && now - last < this.intervalMs) return false;
    this.admittedAt.set(src, now);
    return true;
  }

  /** The player left. */
  forget(src: number): void {
    this.admittedAt.delete(src);
  }

  get size(): number {
    return this.admittedAt.size;
  }
}
