import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../../server/edge/client-event-limits.js';

function clock() {
  let now = 1_000_000;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const takeMany = (buckets: TokenBuckets<number>, key: number, count: number) =>
  Array.from({ length: count }, () => buckets.take(key));

describe('TokenBuckets', () => {
  it('allows a burst up to the capacity, then refuses', () => {
    const time = clock();
    const buckets = new TokenBuckets<number>(5, 0.5, time.now);

    expect(takeMany(buckets, 1, 7)).toEqual([true, true, true, true, true, false, false]);
  });

  it('refills at the given rate per second', () => {
    const time = clock();
    const buckets = new TokenBuckets<number>(5, 0.5, time.now);
    takeMany(buckets, 1, 5);

    time.advance(1_999);
    expect(buckets.take(1)).toBe(false);
    time.advance(1);
    expect(buckets.take(1)).toBe(true);
    expect(buckets.take(1)).toBe(false);
  });

  it('keeps refused attempts from draining the refill', () => {
    const time = clock();
    const buckets = new TokenBuckets<number>(1, 1, time.now);
    buckets.take(1);

    for (let i = 0; i < 3; i++) {
      time.advance(250);
      expect(buckets.take(1)).toBe(false);
    }
    time.advance(250);
    expect(buckets.take(1)).toBe(true);
  });

  it('never holds more than its capacity, however long it was idle', () => {
    const time = clock();
    const buckets = new TokenBuckets<number>(3, 1, time.now);
    buckets.take(1);

    time.advance(3_600_000);
    expect(takeMany(buckets, 1, 4)).toEqual([true, true, true, false]);
  });

  it('gives every key its own bucket', () => {
    const time = clock();
    const buckets = new TokenBuckets<number>(2, 0.1, time.now);

    expect(takeMany(buckets, 1, 3)).toEqual([true, true, false]);
    expect(takeMany(buckets, 2, 3)).toEqual([true, true, false]);
  });

  it('starts a forgotten key over with a full bucket', () => {
    const time = clock();
    const buckets = new TokenBuckets<number>(2, 0.1, time.now);
    takeMany(buckets, 1, 2);

    buckets.forget(1);
    expect(takeMany(buckets, 1, 3)).toEqual([true, true, false]);
  });
});
