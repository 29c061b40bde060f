import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_EVENT_LIMITS,
  CLIENT_EVENT_NAMES,
  type ClientEvent,
  ClientEventLimits,
  TokenBuckets,
} from '../../../server/edge/client-event-limits.js';
import { REPO_ROOT } from '../../e2e/support/world.js';

function clock() {
  let now = 5_000_000;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function limitsWithLog() {
  const time = clock();
  const lines: string[] = [];
  const limits = new ClientEventLimits(time.now, { debug: (line: string) => lines.push(line) });
  return { time, lines, limits };
}

const EVENTS = Object.keys(CLIENT_EVENT_LIMITS) as ClientEvent[];

describe('per-player limits of client → server events', () => {
  it.each(EVENTS)('%s: 40 a second for a minute admits the burst and then only the refill', (event) => {
    const { time, limits } = limitsWithLog();
    const { burst, perSecond } = CLIENT_EVENT_LIMITS[event];
    let admitted = 0;
    for (let i = 0; i < 2_400; i++) {
      if (limits.admit(event, 7)) admitted++;
      time.advance(25);
    }
    expect(admitted).toBeLessThanOrEqual(burst + Math.floor(perSecond * 60));
    expect(admitted).toBeGreaterThanOrEqual(burst);
  });

  it('lets a ready and a token proof through at most twice a minute, whatever a client sends', () => {
    const { time, limits } = limitsWithLog();
    const admittedIn = (event: ClientEvent) => {
      let admitted = 0;
      for (let i = 0; i < 2_400; i++) {
        if (limits.admit(event, 3)) admitted++;
        time.advance(25);
      }
      return admitted;
    };
    expect(admittedIn('ready')).toBe(2);
    expect(admittedIn('tokenProof')).toBeLessThanOrEqual(2);
  });

  it('never refuses what the bridge client sends: a ready and its token proof, clicks and /dutyrefresh by hand', () => {
    const { time, limits } = limitsWithLog();
    expect(limits.admit('ready', 1)).toBe(true);
    expect(limits.admit('tokenProof', 1)).toBe(true);
    // A player clicking the duty menu on and off every few seconds, and typing /dutyrefresh now and then.
    for (let click = 0; click < 200; click++) {
      expect(limits.admit('dutyRequest', 1)).toBe(true);
      if (click % 10 === 0) expect(limits.admit('refresh', 1)).toBe(true);
      time.advance(click % 5 === 0 ? 500 : 3_000);
    }
  });

  it('keeps each player and each event apart', () => {
    const { limits } = limitsWithLog();
    while (limits.admit('ready', 1));
    expect(limits.admit('ready', 2)).toBe(true);
    expect(limits.admit('dutyRequest', 1)).toBe(true);
  });

  it('tells a refusal once per run of refusals, at debug level, naming the player and the event', () => {
    const { time, lines, limits } = limitsWithLog();
    for (let i = 0; i < 100; i++) limits.admit('dutyRequest', 9);
    expect(lines).toEqual([
      'player 9 sends bridge:internal:dutyRequest faster than a client does; refused until it slows down',
    ]);
    time.advance(2_000);
    expect(limits.admit('dutyRequest', 9)).toBe(true);
    for (let i = 0; i < 100; i++) limits.admit('dutyRequest', 9);
    expect(lines).toHaveLength(2);
  });

  it('forgets a player who left: a new player on that id starts with a full allowance', () => {
    const { limits } = limitsWithLog();
    while (limits.admit('ready', 4));
    limits.forget(4);
    expect(limits.admit('ready', 4)).toBe(true);
  });

  // The table of client → server events (docs/operations.md, moved there from the README) is what an owner reads to
  // know what a client may send.
  it.each(EVENTS)(
    '%s: docs/operations.md names its event and limit in the table of client → server events',
    (event) => {
      const { burst, perSecond } = CLIENT_EVENT_LIMITS[event];
      const period = 1 / perSecond;
      const refill = period === 60 ? '1 a minute' : period === 1 ? '1 a second' : `1 every ${period} s`;
      const readme = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8').split('\n');
      const row = readme.find((line) => line.startsWith(`| \`${CLIENT_EVENT_NAMES[event]}\``));
      expect(row, `a row for ${CLIENT_EVENT_NAMES[event]}`).toBeDefined();
      expect(row).toContain(`${burst} at once, then ${refill}`);
    },
  );
});

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
