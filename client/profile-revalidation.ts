export interface RevalidationOptions {
  /** Config.RefreshIntervalMs: how old the profile may get, and how often the server may be asked at most. */
  intervalMs: number;
  /** The client's monotonic clock (GetGameTimer). */
  now: () => number;
  /** Asks the server to fetch the profile again; the answer arrives as `bridge:client:profile`. */
  ask: () => void;
}

/**
 * Stale-while-revalidate for the client's profile. Its age is counted from when it arrived on this client, on the
 * game timer: the profile's `fetchedAt` is the server's wall clock, which this client's clock does not share and an
 * admin or NTP may move. A menu that reads a profile older than the interval gets it at once, and the server is
 * asked for a new one, at most once per interval however often menus read it; nothing is asked while no menu reads.
 * The server has its own once-per-interval gate per player: this one keeps an honest client from spending it.
 */
export function createRevalidation({ intervalMs, now, ask }: RevalidationOptions) {
  let arrivedAt: number | undefined;
  let askedAt: number | undefined;
  return {
    /** A profile arrived from the server. */
    arrived() {
      arrivedAt = now();
    },
    /** A menu read the profile. */
    used() {
      const at = now();
      if (arrivedAt === undefined || at - arrivedAt <= intervalMs) return;
      if (askedAt !== undefined && at - askedAt < intervalMs) return;
      askedAt = at;
      ask();
    },
  };
}
