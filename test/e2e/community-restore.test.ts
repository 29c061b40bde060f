// Redis coming back older than the community (issue 30, case 3): a restart from an older dump.rdb (Debian's
// redis.conf saves snapshots, so a plain reboot does this) and a failover to a replica that lagged. Both bring back
// a record of the account older than the claim a server holds now; the later claim must win, and the panel's duty
// book must still match the games. Two simulated servers, one mock panel, one real redis-server (and its replica).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RedisReplica, startReplica } from '../../sim/community/redis-replica.js';
import type { Sim } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { type SimCommunity, startSimCommunity } from './support/community.js';
import {
  claimedIn,
  gameOnDuty,
  inCommunity,
  joined,
  LIVENESS_CONVAR,
  linesOf,
  offDuty,
  offDutyEventsOf,
  onDuty,
  openAt,
  ownerRecord,
  printConsoles,
  TEST_LIVENESS_MS,
} from './support/community-duty.js';

let community: SimCommunity | undefined;
let redis: RedisServer | undefined;
let replica: RedisReplica | undefined;
let ran: SimCommunity | undefined;
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => printConsoles(ran));
});
afterEach(async () => {
  ran = community;
  await community?.close();
  await replica?.stop();
  await redis?.stop();
  community = undefined;
  redis = undefined;
  replica = undefined;
});

const JAMIE = ONE_DEPARTMENT;

async function startCommunity(): Promise<SimCommunity> {
  redis = await startRedisServer();
  community = await startSimCommunity({
    servers: 2,
    redisUrl: redis.url(),
    convarsOf: () => ({ [LIVENESS_CONVAR]: String(TEST_LIVENESS_MS) }),
  });
  await Promise.all(community.sims.map(inCommunity));
  return community;
}

const settle = (sim: Sim, ms: number) => sim.advance(ms);

describe.skipIf(!redisAvailable())('Redis back older than the community (two servers, one panel)', () => {
  it('kill -9, then a restart from an older dump.rdb: B keeps the duty it took after the snapshot', async () => {
    const { sims } = await startCommunity();
    const [a, b] = sims as [Sim, Sim];
    const onA = await joined(community as SimCommunity, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis as RedisServer, JAMIE);
    // Debian's redis.conf saves snapshots: this one has A's claim.
    const older = await (redis as RedisServer).snapshot();
    const onB = await joined(community as SimCommunity, b, JAMIE);
    await onDuty(b, onB);
    await a.until(() => offDutyEventsOf(a, onA).length > 0, 10_000, 'A to let the account go');
    const bOwns = await ownerRecord(redis as RedisServer, JAMIE);

    await (redis as RedisServer).restartFrom(older);
    // Both servers reconnect and settle: B's claim is the later one.
    await b.until(() => linesOf(b, /answers again/).length > 0, 15_000, 'B back on Redis');
    await settle(b, 9_000);

    expect(gameOnDuty(onB)).toBe(true);
    expect(offDutyEventsOf(b, onB)).toEqual([]);
    expect((await ownerRecord(redis as RedisServer, JAMIE))?.server).toBe(bOwns?.server);
    expect(openAt(community as SimCommunity, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    await offDuty(b, onB);
    await b.until(() => openAt(community as SimCommunity, JAMIE).length === 0, 10_000, 'B’s off');
  }, 40_000);

  it('a failover to a replica that lagged: B keeps the duty the replica never heard of', async () => {
    redis = await startRedisServer();
    replica = await startReplica(redis);
    // Each server reaches "the Redis" through one address (its proxy), which the failover points at the replica.
    community = await startSimCommunity({
      servers: 2,
      proxiedRedis: redis,
      convarsOf: () => ({ [LIVENESS_CONVAR]: String(TEST_LIVENESS_MS) }),
    });
    await Promise.all(community.sims.map(inCommunity));
    const [a, b] = community.sims as [Sim, Sim];
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis as RedisServer, JAMIE);
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
    // The claim again at the reconnection settles it (the restart from a snapshot above also waits out the second
    // look, 8 s later).
    await b.advance(3_000);

    expect(gameOnDuty(onB)).toBe(true);
    expect(offDutyEventsOf(b, onB)).toEqual([]);
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);
    await offDuty(b, onB);
    await b.until(() => openAt(community as SimCommunity, JAMIE).length === 0, 10_000, 'B’s off');
  }, 40_000);
});
