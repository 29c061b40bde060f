// Issue 32 item 4, "Across a community": two simulated servers with Config.ResumeWindowMs, one mock panel, one real
// redis-server. The tests are split over two files by outcome, so that vitest runs them side by side.
import type { BridgeServerExports } from '../../../shared/events.js';
import type { Sim } from '../../../sim/index.js';
import { ONE_DEPARTMENT } from '../../mock-panel/support/demo-users.js';
import type { RedisServer } from '../../support/redis-server.js';
import { communityPerTest, inCommunity, LIVENESS_CONVAR, ownerRecord, TEST_LIVENESS_MS } from './community-duty.js';

export const JAMIE = ONE_DEPARTMENT;
export const WINDOW_MS = 12_000;
const withLiveness = () => ({ [LIVENESS_CONVAR]: String(TEST_LIVENESS_MS) });
export const exportsOf = (sim: Sim) => sim.exports.bridge as BridgeServerExports;
export const onDutyEventsOf = (sim: Sim) =>
  sim.events.filter((event) => event.name === 'bridge:server:playerOnDuty').map((event) => event.args);

/** A community per test (its hooks are registered in the calling file), and how to start two servers in it. */
export function heldShiftCommunity() {
  const world = communityPerTest();
  return {
    async twoServers() {
      const redis = await world.redisServer();
      const community = await world.simCommunity({
        servers: 2,
        redisUrl: redis.url(),
        config: `Config.ResumeWindowMs = ${WINDOW_MS}`,
        convarsOf: withLiveness,
      });
      const [a, b] = community.sims as [Sim, Sim];
      await Promise.all([inCommunity(a), inCommunity(b)]);
      return { redis, community, a, b };
    },
  };
}

/** Until the account's owner record says its shift is held, and until when (ms on Redis's clock). */
export async function heldIn(redis: RedisServer): Promise<void> {
  for (let tries = 0; tries < 250; tries++) {
    if (typeof (await ownerRecord(redis, JAMIE))?.held === 'string') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the owner record never said the shift is held');
}
