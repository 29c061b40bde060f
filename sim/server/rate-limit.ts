// FXServer's per-client limits on client→server events (ServerEventPacketHandler, fivem-runtime.md §1.2):
// `netEvent` 50/s with a burst of 200 and `netEventSize` 128 KiB/s (burst 384 KiB) drop the event; beyond them,
// `netEventFlood` 75/s (burst 300) drops the player ("Reliable network event overflow.").
class Bucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  take(now: number, amount = 1): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < amount) return false;
    this.tokens -= amount;
    return true;
  }
}

/** Each player's buckets, full on their first packet and forgotten when they leave. */
abstract class PerPlayerLimiter<Buckets> {
  private readonly perPlayer = new Map<number, Buckets>();

  constructor(protected readonly now: () => number) {}

  protected abstract fullBuckets(now: number): Buckets;

  protected bucketsOf(playerId: number, now: number): Buckets {
    let buckets = this.perPlayer.get(playerId);
    if (!buckets) {
      buckets = this.fullBuckets(now);
      this.perPlayer.set(playerId, buckets);
    }
    return buckets;
  }

  /** A player's buckets if they sent anything yet. */
  protected existingBucketsOf(playerId: number): Buckets | undefined {
    return this.perPlayer.get(playerId);
  }

  forget(playerId: number): void {
    this.perPlayer.delete(playerId);
  }

  /** Players with buckets. */
  get size(): number {
    return this.perPlayer.size;
  }
}

export type RateVerdict = 'ok' | 'drop-event' | 'drop-player';

export class NetRateLimiter extends PerPlayerLimiter<{ event: Bucket; size: Bucket; flood: Bucket }> {
  protected fullBuckets(now: number) {
    return {
      event: new Bucket(50, 200, now),
      size: new Bucket(128 * 1024, 384 * 1024, now),
      flood: new Bucket(75, 300, now),
    };
  }

  take(playerId: number, bytes: number): RateVerdict {
    const now = this.now();
    const buckets = this.bucketsOf(playerId, now);
    if (buckets.event.take(now) && buckets.size.take(now, bytes)) return 'ok';
    return buckets.flood.take(now) ? 'drop-event' : 'drop-player';
  }
}

export type StateBagVerdict = 'ok' | 'drop-update' | 'drop-player-flood' | 'drop-player-size';

// FXServer's per-client limits on client→server state bag packets (StateBagPacketHandler, fivem-runtime.md §7.2):
// every packet spends from `stateBag` (75/s, burst 125) and `stateBagFlood` (150/s, burst 175) alike; past the
// first the update is dropped, past both the player is. `stateBagSize` (128 KiB/s, burst 256 KiB) drops the player.
export class StateBagRateLimiter extends PerPlayerLimiter<{
  update: Bucket;
  flood: Bucket;
  size: Bucket;
  warn: Bucket;
}> {
  protected fullBuckets(now: number) {
    return {
      update: new Bucket(75, 125, now),
      flood: new Bucket(150, 175, now),
      size: new Bucket(128 * 1024, 256 * 1024, now),
      warn: new Bucket(1, 1, now),
    };
  }

  take(playerId: number, bytes: number): StateBagVerdict {
    const now = this.now();
    const buckets = this.bucketsOf(playerId, now);
    const withinRate = buckets.update.take(now);
    const withinFlood = buckets.flood.take(now);
    if (!withinRate) return withinFlood ? 'drop-update' : 'drop-player-flood';
    return buckets.size.take(now, bytes) ? 'ok' : 'drop-player-size';
  }

  /** FXServer warns about dropped updates at most once a second per client. */
  mayWarn(playerId: number): boolean {
    return this.existingBucketsOf(playerId)?.warn.take(this.now()) ?? false;
  }
}
