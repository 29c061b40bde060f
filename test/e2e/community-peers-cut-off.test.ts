// Liveness across the community (issue 30): a server that stops renewing its liveness on Redis's clock has its
// shifts ended at the panel by a surviving server, fenced; a server that was only cut off from Redis puts the panel
// right again once it is back; and an `off` that Redis cannot confirm waits for it, never sent on a guess.
// This file: the server only cut off (the rest is in community-peers.test.ts).
import { describe, expect, it } from 'vitest';
import type { Sim } from '../../sim/index.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { redisAvailable } from '../support/redis-server.js';
import {
  claimedIn,
  communityPerTest,
  dutyCallsOf,
  gameOnDuty,
  inCommunity,
  joined,
  offDuty,
  offDutyEventsOf,
  onDuty,
  openAt,
  TEST_LIVENESS_MS,
  withTestLiveness,
} from './support/community-duty.js';

const world = communityPerTest();

const JAMIE = ONE_DEPARTMENT;

describe.skipIf(!redisAvailable())('liveness across the community', () => {
  it('a server alive but cut off from Redis past its liveness: a peer ends its shift, and once the link heals it claims again and the panel has the shift its game still holds', async () => {
    const redis = await world.redisServer();
    // A short request timeout keeps the peer's lease (and so the restate after it) short.
    const community = await world.simCommunity({
      servers: 2,
      proxiedRedis: redis,
      convarsOf: withTestLiveness,
      config: 'Config.RequestTimeoutMs = 1000',
    });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    const onA = await joined(community, a, JAMIE);
    await onDuty(a, onA);
    await claimedIn(redis, JAMIE);

    // Packets dropped: A's commands only time out; its players keep playing.
    community.proxyOf(a).cutLink('blackhole');
    await b.until(() => openAt(community, JAMIE).length === 0, 4 * TEST_LIVENESS_MS, 'B to end it');
    expect(gameOnDuty(onA)).toBe(true);

    community.proxyOf(a).heal();
    await a.until(() => openAt(community, JAMIE).length === 1, 20_000, 'A to put the panel right');
    await a.advance(1_000);
    expect(gameOnDuty(onA)).toBe(true);
    expect(offDutyEventsOf(a, onA)).toEqual([]);
    expect(openAt(community, JAMIE)).toEqual([expect.objectContaining({ departmentId: 3 })]);

    await offDuty(a, onA);
    await a.until(() => openAt(community, JAMIE).length === 0, 10_000, 'A’s off');
    expect(dutyCallsOf(community)).toEqual(['on', 'off', 'on', 'off']);
  }, 40_000);
});
