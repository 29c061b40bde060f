/** Something that waits for Redis to answer before it goes on: what `bridge status` lists under "held for Redis". */
export interface HeldCall {
  /** What waits, as the owner reads it: `off duty of chat account 2846… (left open by the last run)`. */
  what: string;
  /** Since when it waits (this server's monotonic clock). */
  since: number;
}

/**
 * What waits for the community's Redis on this server (in dist/server.js, so it is there whether or not Redis ever
 * answers). A part that holds a call until Redis confirms something (crash recovery's `off`s, a kept call whose owner
 * must be asked) calls `hold` when it starts waiting and the function it gets back when it stops.
 */
export class HeldForRedis {
  private readonly held = new Set<HeldCall>();

  constructor(private readonly now: () => number) {}

  /** `what` waits for Redis from now on; the function returned ends the wait (calling it again does nothing). */
  hold(what: string): () => void {
    const call = { what, since: this.now() };
    this.held.add(call);
    return () => {
      this.held.delete(call);
    };
  }

  /** Everything that waits now, the longest waiting first. */
  list(): HeldCall[] {
    return [...this.held].sort((a, b) => a.since - b.since);
  }
}
