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

export type RateVerdict = 'ok' | 'drop-event' | 'drop-player';

export class NetRateLimiter {
  private readonly perPlayer = new Map<number, { event: Bucket; size: Bucket; flood: Bucket }>();

  constructor(private readonly now: () => number) {}

  take(playerId: number, bytes: number): RateVerdict {
    const now = this.now();
    let buckets = this.perPlayer.get(playerId);
    if (!buckets) {
      buckets = {
        event: new Bucket(50, 200, now),
        size: new Bucket(128 * 1024, 384 * 1024, now),
        flood: new Bucket(75, 300, now),
      };
      this.perPlayer.set(playerId, buckets);
    }
    if (buckets.event.take(now) && buckets.size.take(now, bytes)) return 'ok';
    return buckets.flood.take(now) ? 'drop-event' : 'drop-player';
  }

  forget(playerId: number): void {
    this.perPlayer.delete(playerId);
  }
}
