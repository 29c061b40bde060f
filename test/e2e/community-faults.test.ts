// The faults a real Redis deployment sees, against a community of simulated servers, one mock panel and one real
// redis-server (issue 30): writes paused, a server cut off from Redis, a server made by copying another's folder, and
// a budget key of the wrong type (Redis back older than the community: community-restore.test.ts). After each, the
// panel's duty book must match the games: every open session is held by a game, in its department, and no game's
// duty is missing at the panel.
import { describe, expect, it } from 'vitest';
import { copyKvpFolder } from '../../sim/community/kvp-folder.js';
import type { Sim } from '../../sim/index.js';
import { BCSO, LSPD, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable } from '../support/redis-server.js';
import { changeDuty } from './support/bridge-exports.js';
import type { SimCommunity, SimCommunityOptions } from './support/community.js';
import {
  communityPerTest,
  dutyCallsOf,
  gameOnDuty,
  inCommunity,
  joined,
  LIVENESS_CONVAR,
  linesOf,
  offDuty,
  offDutyEventsOf,
  onDuty,
  openAt,
  untilQuiet,
  withTestLiveness,
} from './support/community-duty.js';

const world = communityPerTest();

const JAMIE = ONE_DEPARTMENT;
const ALEX = TWO_DEPARTMENTS;

async function startCommunity(
  options: Partial<SimCommunityOptions> = {},
): Promise<{ community: SimCommunity; redis: RedisServer }> {
  const redis = await world.redisServer();
  const community = await world.simCommunity({
    servers: 2,
    ...(options.proxiedRedis ? {} : { redisUrl: redis.url() }),
    convarsOf: withTestLiveness,
    ...options,
  });
  await Promise.all(community.sims.map(inCommunity));
  return { community, redis };
}

const settle = (sim: Sim, ms: number) => sim.advance(ms);

describe.skipIf(!redisAvailable())('duty across the community under faults (two servers, one panel, one Redis)', () => {
  it('writes paused (CLIENT PAUSE 2000 WRITE) while A claims: B’s later duty is not ended by A, and A’s game lets go', async () => {
    // A liveness well above the pause, as the default (30 s) is: no server is taken for gone by it.
    const { community, redis } = await startCommunity({ convarsOf: () => ({ [LIVENESS_CONVAR]: '12000' }) });
    const [a, b] = community.sims as [Sim, Sim];
    const onA = await joined(community, a, JAMIE);
    // Redis stalls (a fork for a save, a slow disk): A's claim times out after 500 ms, and lands when the pause ends.
    await redis.pause(2_000, 'WRITE');
    await onDuty(a, onA);
    await settle(a, 2_500);

    const onB = await joined(community, b, JAMIE);
    await onDuty(b, onB);
    // A hears B's claim and gives the account up in game, without an off.
    await a.until(() => offDutyEventsOf(a, onA).length > 0, 10_000, 'A to let the account go').catch(() => {});
    await changeDuty(a, onA, false);
    await settle(b, 1_000);

    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    expect(gameOnDuty(onB)).toBe(true);
    expect(gameOnDuty(onA)).toBe(false);
    expect(offDutyEventsOf(a, onA)).toEqual([[{ departmentId: 3, reason: 'replaced' }]]);
    await offDuty(b, onB);
    await b.until(() => openAt(community, JAMIE).length === 0, 10_000, 'B’s off');
    expect(dutyCallsOf(community)).toEqual(['on', 'on', 'off']);
  }, 30_000);

  it('a partition: A, cut off, puts the account on duty in LSPD; B then in BCSO; once healed the panel and the games agree on B', async () => {
    const redis = await world.redisServer();
    const community = await world.simCommunity({
      servers: 2,
      proxiedRedis: redis,
      convarsOf: withTestLiveness,
    });
    await Promise.all(community.sims.map(inCommunity));
    const [a, b] = community.sims as [Sim, Sim];
    const onA = await joined(community, a, ALEX);
    const onB = await joined(community, b, ALEX);
    community.proxyOf(a).cutLink('reset');
    await a.until(() => linesOf(a, /is gone/).length > 0, 10_000, 'A cut off');
    await onDuty(a, onA, 0);
    await onDuty(b, onB, 1);
    await b.advance(1_000);

    community.proxyOf(a).heal();
    await a.until(() => linesOf(a, /answers again/).length > 0, 15_000, 'A back');
    await untilQuiet(community, redis, { quietMs: 3_000 });

    expect(openAt(community, ALEX)).toEqual([expect.objectContaining({ departmentId: BCSO.id })]);
    expect(gameOnDuty(onB)).toBe(true);
    expect(gameOnDuty(onA)).toBe(false);
    expect(offDutyEventsOf(a, onA)).toEqual([[{ departmentId: LSPD.id, reason: 'superseded' }]]);
    expect(offDutyEventsOf(b, onB)).toEqual([]);
  }, 40_000);

  it('a server made by copying another’s folder (KVP included) takes an identity of its own and ends none of its duties', async () => {
    const { community } = await startCommunity({ servers: 1 });
    const [a] = community.sims as [Sim];
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    const copied = copyKvpFolder(community.kvpDirOf(a));
    const c = await community.addServer({ kvpDir: copied });
    await inCommunity(c);
    await c.advance(4_000);

    // A's shift is untouched: the copy's inherited duty records were A's.
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    expect(dutyCallsOf(community)).toEqual(['on']);
    expect(linesOf(c, /copied|is not sent/)).toEqual([
      expect.stringMatching(/^WARN: .*most likely copied.*this server is [0-9a-f]{16} in the community from now on/),
      expect.stringMatching(/^INFO: the off of chat account \d+ is not sent: it is a call of the live server/),
    ]);

    // With an identity of its own, a duty taken on C ends A's in game, and A sends nothing when its player leaves.
    const onC = await joined(community, c, JAMIE);
    await onDuty(c, onC);
    await a.until(() => offDutyEventsOf(a, onA).length > 0, 10_000, 'A to let the account go');
    onA.drop();
    await c.advance(1_000);
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    expect(gameOnDuty(onC)).toBe(true);
    await offDuty(c, onC);
    await c.until(() => openAt(community, JAMIE).length === 0, 10_000, 'C’s off');
    expect(dutyCallsOf(community)).toEqual(['on', 'on', 'off']);
  }, 40_000);

  it('a budget key of the wrong type is set aside with one WARN, and the community shares its budget again', async () => {
    const redis = await world.redisServer();
    // Another program left a list where the community keeps its budget (a hash).
    const prefixOf = async () => {
      for (let tries = 0; tries < 200; tries++) {
        const keys = (await redis.command('KEYS', 'bridge:*:counts')) as string[];
        if (keys[0]) return keys[0].replace(/counts$/, '');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('no community keys');
    };
    const community = await world.simCommunity({ servers: 2, redisUrl: redis.url() });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const prefix = await prefixOf();
    await redis.command(
      'EVAL',
      "redis.call('DEL', KEYS[1]); return redis.call('RPUSH', KEYS[1], 'not', 'a', 'budget')",
      '1',
      `${prefix}budget`,
    );
    for (const [index, sim] of [a, b].entries()) await joined(community, sim, index === 0 ? JAMIE : ALEX);
    await a.advance(1_000);

    const warnings = [a, b].flatMap((sim) => linesOf(sim, /set aside/));
    expect(warnings).toEqual([
      expect.stringMatching(/^WARN: Redis holds a list under bridge:[0-9a-f]{16}:budget, not the hash .*set aside as/),
    ]);
    expect(await redis.command('TYPE', `${prefix}budget:set-aside`)).toBe('list');
    expect(await redis.command('TYPE', `${prefix}budget`)).toBe('hash');
  }, 30_000);
});
