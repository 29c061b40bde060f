/**
 * Redis's clock as this server reckons it: the community's one clock (design.md, "Liveness is on Redis's clock").
 * Every answer that carries Redis's TIME is a sample: Redis read it somewhere between the moment the call left and the
 * moment its answer came, on this server's monotonic clock, so the middle of that round trip maps to it with an error
 * of half the round trip. The sample with the shortest round trip among the recent ones wins: a call held up (a busy
 * Redis, a paused client, a slow frame here) says little. No wall clock is read.
 */
export interface RedisClock {
  /** A call that left at `sentAt` and was answered at `answeredAt` (ms, monotonic) read Redis's TIME as `redisUs`. */
  sample(sentAt: number, answeredAt: number, redisUs: number): void;
  /** A moment of this server's monotonic clock (ms) in µs of Redis's clock, and the error; undefined before a sample. */
  toRedisUs(at: number): { us: number; errorUs: number } | undefined;
}

/** Samples older than this give way to any newer one: both clocks drift, and Redis may have failed over. */
const SAMPLE_KEPT_MS = 60_000;

export function redisClock(now: () => number): RedisClock {
  let best: { offsetUs: number; errorUs: number; at: number } | undefined;
  return {
    sample(sentAt, answeredAt, redisUs) {
      const errorUs = Math.max(0, answeredAt - sentAt) * 500;
      const offsetUs = redisUs - ((sentAt + answeredAt) / 2) * 1000;
      const stale = best === undefined || now() - best.at > SAMPLE_KEPT_MS;
      if (stale || errorUs <= (best?.errorUs ?? 0)) best = { offsetUs, errorUs, at: answeredAt };
    },
    toRedisUs(at) {
      if (!best) return undefined;
      return { us: Math.round(at * 1000 + best.offsetUs), errorUs: Math.ceil(best.errorUs) };
    },
  };
}
