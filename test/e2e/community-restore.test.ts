// Redis coming back older than the community (issue 30, case 3): a restart from an older dump.rdb (Debian's
// redis.conf saves snapshots, so a plain reboot does this) and a failover to a replica that lagged. Both bring back
// a record of the account older than the claim a server holds now; the later claim must win, and the panel's duty
// book must still match the games. Two simulated servers, one mock panel, one real redis-server (and its replica).
import { describe, expect, it } from 'vitest';
import type { Sim } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable } from '../support/redis-server.js';
import type { SimCommunity } from './support/community.js';
import {
  claimedIn,
  communityPerTest,
  gameOnDuty,
  inCommunity,
  joined,
  linesOf,
  offDuty,
  offDutyEventsOf,
  onDuty,
  openAt,
  ownerRecord,
  withTestLiveness,
} from './support/community-duty.js';

const world = communityPerTest();

const JAMIE = ONE_DEPARTMENT;

async function startCommunity(): Promise<{ community: SimCommunity; redis: RedisServer }> {
  const redis = await world.redisServer();
  const community = await world.simCommunity({
    servers: 2,
    redisUrl: redis.url(),
    convarsOf: withTestLiveness,
  });
  await Promise.all(community.sims.map(inCommunity));
  return { community, redis };
}

const settle = (sim: Sim, ms: number) => sim.advance(ms);

describe.skipIf(!redisAvailable())('Redis back older than the community (two servers, one panel)', () => {
  it('kill -9, then a restart from an older dump.rdb: B keeps the duty it took after the snapshot', async () => {
    const { community, redis } = await startCommunity();
    const [a, b] = community.sims as [Sim, Sim];
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis, JAMIE);
    // Debian's redis.conf saves snapshots: this one has A's claim.
    const older = await redis.snapshot();
    const onB = await joined(community, b, JAMIE);
    await onDuty(b, onB);
    await a.until(() => offDutyEventsOf(a, onA).length > 0, 10_000, 'A to let the account go');
    const bOwns = await ownerRecord(redis, JAMIE);

    await redis.restartFrom(older);
    // Both servers reconnect and settle: B's claim is the later one.
    await b.until(() => linesOf(b, /answers again/).length > 0, 15_000, 'B back on Redis');
    // The claim again at the reconnection settles it.
    await settle(b, 3_000);

    expect(gameOnDuty(onB)).toBe(true);
    expect(offDutyEventsOf(b, onB)).toEqual([]);
    expect((await ownerRecord(redis, JAMIE))?.server).toBe(bOwns?.server);
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    await offDuty(b, onB);
    await b.until(() => openAt(community, JAMIE).length === 0, 10_000, 'B’s off');
  }, 40_000);

  it('a failover to a replica that lagged: B keeps the duty the replica never heard of', async () => {
    const redis = await world.redisServer();
    const replica = await world.replicaOf(redis);
    // Each server reaches "the Redis" through one address (its proxy), which the failover points at the replica.
    const community = await world.simCommunity({
      servers: 2,
      proxiedRedis: redis,
      convarsOf: withTestLiveness,
    });
    await Promise.all(community.sims.map(inCommunity));
    const [a, b] = community.sims as [Sim, Sim];
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis, JAMIE);
    await replica.inSync();
    replica.lag();
    const onB = await joined(community, b, JAMIE);
    await onDuty(b, onB);
    await a.until(() => offDutyEventsOf(a, onA).length > 0, 10_000, 'A to let the account go');

    // The primary dies; the replica, which never got B's claim, is promoted and takes its address.
    await redis.kill();
    await replica.server.promote();
    for (const sim of [a, b]) community.proxyOf(sim).retarget(replica.server.port);
    await b.until(() => linesOf(b, /answers again/).length > 0, 15_000, 'B on the promoted replica');
    // The claim again at the reconnection settles it.
    await b.advance(3_000);

    expect(gameOnDuty(onB)).toBe(true);
    expect(offDutyEventsOf(b, onB)).toEqual([]);
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    await offDuty(b, onB);
    await b.until(() => openAt(community, JAMIE).length === 0, 10_000, 'B’s off');
  }, 40_000);
});
