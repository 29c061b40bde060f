// The community's budget (server/community/shared-budget.ts) on a real redis-server, two servers' views of it.
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommunityLink } from '../../../server/community/community.js';
import { sharedReader } from '../../../server/community/read-shared.js';
import { openRedisLink } from '../../../server/community/redis-link.js';
import { parseRedisUrl } from '../../../server/community/redis-settings.js';
import { sharedBudget } from '../../../server/community/shared-budget.js';
import { createLogger } from '../../../server/kernel/log.js';
import type { BudgetSnapshot } from '../../../server/panel/rate-budget.js';
import type { RequestClass } from '../../../server/panel/request-queues.js';
import type { SharedBudget } from '../../../server/panel/request-scheduler.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';

const LEARNED: BudgetSnapshot = {
  limit: 20,
  windowMs: 10_000,
  limitSource: 'panel',
  remaining: 20,
  resetAt: undefined,
  resetKnown: false,
  blockedUntil: undefined,
};

describe.skipIf(!redisAvailable())("the community's budget", () => {
  let redis: RedisServer;
  let links: Array<CommunityLink & { close(): void }> = [];
  let lines: string[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    await redis.command('FLUSHALL');
    lines = [];
  });
  afterEach(() => {
    for (const link of links) link.close();
    links = [];
  });

  /** One server of the community: its own connection, the same Redis and panel. */
  async function server(): Promise<SharedBudget> {
    const logger = createLogger({ print: (line) => lines.push(line) });
    const parsed = parseRedisUrl(redis.url());
    if (!parsed.ok) throw new Error(parsed.error);
    const link = openRedisLink({ target: parsed.target, panel: 'http://panel.test', logger });
    links.push(link);
    await firstValueFrom(link.connected$);
    const serverId = `server-${links.length}`;
    return sharedBudget({ link, readShared: sharedReader(logger), now: () => performance.now(), logger, serverId });
  }

  /** Acquires until the budget says wait: how many were granted, and the wait. */
  async function drain(budget: SharedBudget, requestClass: RequestClass, local = LEARNED) {
    const tickets: number[] = [];
    for (;;) {
      const grant = await budget.acquire(requestClass, local);
      if (!grant) throw new Error('Redis failed');
      if (!grant.granted) return { tickets, retryInMs: grant.retryInMs };
      tickets.push(grant.ticket);
    }
  }

  it('a duty call on A is not starved by players waiting on B: the last request of the window is kept for it', async () => {
    const [a, b] = [await server(), await server()];
    // Two left in the window (the panel said so), 8 s before its reset.
    const askedNoEarlierThan = performance.now();
    const nearlySpent = { ...LEARNED, remaining: 2, resetAt: askedNoEarlierThan + 8_000, resetKnown: true };
    const storm = await drain(b, 'waiting', nearlySpent);
    expect(storm.tickets).toHaveLength(1);
    expect(await a.acquire('duty', LEARNED)).toEqual({ granted: true, ticket: 2 });
    expect(await a.acquire('duty', LEARNED)).toMatchObject({ granted: false });
    // The player waiting on B was told to wait for the window's last slot (its last two seconds), when what is kept
    // back goes to anyone: counted from before the first call, less what has passed since.
    const sinceAsked = performance.now() - askedNoEarlierThan;
    expect(storm.retryInMs).toBeGreaterThanOrEqual(6_000 - sinceAsked - 1); // 1: Redis counts whole milliseconds
    expect(storm.retryInMs).toBeLessThanOrEqual(6_000);
  });

  it('players waiting on B are paced over the window like joins: duty calls on A find requests all along', async () => {
    const [a, b] = [await server(), await server()];
    // A window of ten minutes: one nominal slot is 30 s, longer than these calls take on any machine.
    const slow = { ...LEARNED, windowMs: 600_000 };
    const storm = await drain(b, 'waiting', slow);
    // The pace's burst (5) and the interactive reserve (3) a player waiting may run ahead of the joins, no more.
    expect(storm.tickets.length).toBeGreaterThanOrEqual(1);
    expect(storm.tickets.length).toBeLessThanOrEqual(7);
    // Told to wait for the pace, not for the window's last slot ten minutes away.
    expect(storm.retryInMs).toBeLessThan(60_000);
    // Everything the players waiting did not take is there for duty calls.
    const duty = await drain(a, 'duty', slow);
    expect(duty.tickets).toHaveLength(20 - storm.tickets.length);
  });

  it('a player waiting on A goes ahead of a join storm on B that the pace holds back', async () => {
    const [a, b] = [await server(), await server()];
    const slow = { ...LEARNED, windowMs: 600_000 };
    const storm = await drain(b, 'join', slow);
    expect(storm.tickets.length).toBeGreaterThanOrEqual(1);
    expect(await b.acquire('join', slow)).toMatchObject({ granted: false });
    expect(await a.acquire('waiting', slow)).toMatchObject({ granted: true });
  });

  it('a join storm on B leaves the interactive reserve: waiting players and duty calls on A still go', async () => {
    const [a, b] = [await server(), await server()];
    // Joins are paced too; with only 4 left in the window (the panel said so) the reserve decides.
    const nearlySpent = { ...LEARNED, remaining: 4, resetAt: performance.now() + 8_000, resetKnown: true };
    const storm = await drain(b, 'join', nearlySpent);
    expect(storm.tickets).toHaveLength(1);
    // Players waiting are paced over the three left (one each 8 s / 3), so the first goes at once.
    expect(await a.acquire('waiting', LEARNED)).toMatchObject({ granted: true });
    expect(await a.acquire('duty', LEARNED)).toMatchObject({ granted: true });
    expect(await a.acquire('duty', LEARNED)).toMatchObject({ granted: true });
    expect(await a.acquire('duty', LEARNED)).toMatchObject({ granted: false });
  });

  it("in the window's last slot the pace holds no one back: a join storm uses what is left before the reset", async () => {
    const b = await server();
    // Ten left (the panel said so), 1.9 s before the reset: inside the last slot (the window's last two seconds).
    const closing = { ...LEARNED, remaining: 10, resetAt: performance.now() + 1_900, resetKnown: true };
    const storm = await drain(b, 'join', closing);
    // All ten (more only if these calls outlasted the window, which then started again).
    expect(storm.tickets.length).toBeGreaterThanOrEqual(10);
  });

  it("a 429 seen by one server blocks every server until the panel's Retry-After", async () => {
    const [a, b] = [await server(), await server()];
    const grant = await a.acquire('join', LEARNED);
    const refusedNoEarlierThan = performance.now();
    a.refused((grant as { ticket: number }).ticket, { form: 'draft-6', remaining: 0, retryAfterMs: 7_000 });
    // refused is sent without waiting; the next call of the same connection runs after it.
    await a.acquire('duty', LEARNED);
    const blocked = await b.acquire('duty', LEARNED);
    expect(blocked).toMatchObject({ granted: false });
    // Blocked until the Retry-After counted from the 429, however long the calls since took.
    const sinceRefused = performance.now() - refusedNoEarlierThan;
    const { retryInMs } = blocked as { retryInMs: number };
    expect(retryInMs).toBeGreaterThanOrEqual(7_000 - sinceRefused - 1); // 1: Redis counts whole milliseconds
    expect(retryInMs).toBeLessThanOrEqual(7_000);
  });

  it("an answer's count, less every request still in flight (servers' requests reach the panel in any order)", async () => {
    const a = await server();
    const tickets: number[] = [];
    for (let i = 0; i < 6; i++) tickets.push(((await a.acquire('duty', LEARNED)) as { ticket: number }).ticket);
    // The panel counted ticket 6 first (14 left after it): tickets 1 to 5 may still be counted.
    a.observe(6, { form: 'draft-6', limit: 20, windowMs: 10_000, remaining: 14, resetInMs: 9_000 });
    const left = await drain(a, 'duty');
    expect(left.tickets).toHaveLength(14 - 5);
  });

  it('Redis restarted empty: the budget starts again from what the server asking knows', async () => {
    const a = await server();
    await drain(a, 'duty');
    await redis.restart();
    await firstValueFrom(links[0]?.connected$ as never);
    const known = { ...LEARNED, remaining: 3, resetAt: performance.now() + 5_000, resetKnown: true };
    const left = await drain(a, 'duty', known);
    expect(left.tickets).toHaveLength(3);
    expect(left.retryInMs).toBeLessThanOrEqual(5_000);
  });

  it('a slow Redis: a timeout is asked again shortly; the third in a row and the server decides alone', async () => {
    const a = await server();
    await redis.command('CLIENT', 'PAUSE', '3000', 'ALL');
    expect(await a.acquire('duty', LEARNED)).toEqual({ granted: false, retryInMs: 100 });
    expect(await a.acquire('duty', LEARNED)).toEqual({ granted: false, retryInMs: 100 });
    expect(await a.acquire('duty', LEARNED)).toBeUndefined();
    expect(a.active).toBe(false);
    await redis.command('CLIENT', 'UNPAUSE');
  });

  it('a grant whose answer was lost to a timeout is given back: the window is not spent on requests never sent', async () => {
    const a = await server();
    // Redis knows the script already (EVALSHA), as it does after the first request of any server.
    const first = (await a.acquire('duty', LEARNED)) as { ticket: number };
    a.observe(first.ticket, { form: 'none' });
    await redis.command('CLIENT', 'PAUSE', '800', 'ALL');
    // Redis runs the acquire after the pause; the server stopped waiting for it at 500 ms.
    expect(await a.acquire('duty', LEARNED)).toEqual({ granted: false, retryInMs: 100 });
    // The test's own connection waits out the pause.
    await redis.command('PING');
    const { tickets } = await drain(a, 'duty');
    expect(tickets).toHaveLength(19);
  });

  it('Redis gone: the budget never waits for it, and the server decides alone', async () => {
    const a = await server();
    const gone = firstValueFrom((links[0] as CommunityLink).up$.pipe(filter((up) => !up)));
    await redis.kill();
    await gone;
    expect(a.active).toBe(false);
    expect(await a.acquire('duty', LEARNED)).toBeUndefined();
    await redis.restart();
  });
});
