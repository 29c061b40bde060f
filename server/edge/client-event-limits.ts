import { INTERNAL_EVENTS } from '../../shared/events.js';
import type { Logger } from '../kernel/index.js';

/** The events a client sends the server; each has its own per-player limit below. */
export type ClientEvent = 'ready' | 'dutyRequest' | 'refresh' | 'refreshOther' | 'revalidate' | 'tokenProof';

interface Limit {
  /** Events a player may send at once. */
  burst: number;
  /** Refill, in events a second. */
  perSecond: number;
}

/**
 * Per player, for every event a client can send. Each is far above what the bridge's own client sends, so a real
 * player never meets one: `ready` once when its script starts, `tokenProof` once per challenge (one per `ready`),
 * a duty request per click of a menu, a refresh per /dutyrefresh (which has its own 30 s cooldown besides), one per
 * supervisor's /dutyrefresh <id> (which needs an ACE besides), a
 * revalidation at most once per refresh interval (which the server gates per player besides: see RevalidationAsks).
 * A script that sends more is refused before any work, so it costs no panel request.
 */
export const CLIENT_EVENT_LIMITS: Readonly<Record<ClientEvent, Limit>> = {
  ready: { burst: 2, perSecond: 1 / 60 },
  tokenProof: { burst: 2, perSecond: 1 / 60 },
  dutyRequest: { burst: 5, perSecond: 0.5 },
  refresh: { burst: 2, perSecond: 0.2 },
  refreshOther: { burst: 3, perSecond: 0.2 },
  revalidate: { burst: 2, perSecond: 1 },
};

/** The net event behind each limit. */
export const CLIENT_EVENT_NAMES: Readonly<Record<ClientEvent, string>> = {
  ready: INTERNAL_EVENTS.clientReady,
  tokenProof: INTERNAL_EVENTS.tokenProof,
  dutyRequest: INTERNAL_EVENTS.dutyRequest,
  refresh: INTERNAL_EVENTS.refreshRequest,
  refreshOther: INTERNAL_EVENTS.refreshOtherRequest,
  revalidate: INTERNAL_EVENTS.revalidateRequest,
};

/**
 * The one gate every client → server event passes. A refused event does no work and costs no panel request; where
 * the client waits for an answer the caller gives one (a duty request: `too_many_requests`; /dutyrefresh: its
 * cooldown notice), the others are dropped. A refusal is told once (at debug level) when a player starts going over
 * a limit, not once per event: a flood must not flood the console either.
 */
export class ClientEventLimits {
  private readonly buckets: ReadonlyMap<ClientEvent, TokenBuckets<number>>;
  /** Players currently over a limit, per event, so their refusals are told once. */
  private readonly refusing: ReadonlyMap<ClientEvent, Set<number>>;

  constructor(
    now: () => number,
    private readonly logger: Pick<Logger, 'debug'>,
    limits: Readonly<Record<ClientEvent, Limit>> = CLIENT_EVENT_LIMITS,
  ) {
    this.buckets = new Map(
      (Object.keys(limits) as ClientEvent[]).map((event) => [
        event,
        new TokenBuckets<number>(limits[event].burst, limits[event].perSecond, now),
      ]),
    );
    this.refusing = new Map((Object.keys(limits) as ClientEvent[]).map((event) => [event, new Set<number>()]));
  }

  /** Whether this player's event is within its limit; counts it if so. */
  admit(event: ClientEvent, src: number): boolean {
    const refusing = this.refusing.get(event);
    if (this.buckets.get(event)?.take(src) ?? false) {
      refusing?.delete(src);
      return true;
    }
    if (refusing && !refusing.has(src)) {
      refusing.add(src);
      this.logger.debug(
        `player ${src} sends ${CLIENT_EVENT_NAMES[event]} faster than a client does; refused until it slows down`,
      );
    }
    return false;
  }

  /** Entries held for players, all events together: zero once everyone has left. */
  get size(): number {
    let size = 0;
    for (const buckets of this.buckets.values()) size += buckets.size;
    for (const refusing of this.refusing.values()) size += refusing.size;
    return size;
  }

  /** The player left: their counts go with them. */
  forget(src: number): void {
    for (const buckets of this.buckets.values()) buckets.forget(src);
    for (const refusing of this.refusing.values()) refusing.delete(src);
  }
}

/**
 * Per-key token buckets: `capacity` requests at once, refilled at `perSecond`. Keeps one client from flooding
 * the server with requests while an honest player never notices it.
 */
export class TokenBuckets<K> {
  private readonly buckets = new Map<K, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {}

  take(key: K): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  forget(key: K): void {
    this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }
}
