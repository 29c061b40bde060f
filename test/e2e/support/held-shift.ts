// Issue 32 item 4, "Across a community": two simulated servers with Config.ResumeWindowMs, one mock panel, one real
// redis-server. The tests are split over four files, one test each (community-resume*.test.ts), so that vitest runs
// them side by side.
import type { BridgeServerExports } from '../../../shared/events.js';
import type { Sim } from '../../../sim/index.js';
import { ONE_DEPARTMENT } from '../../mock-panel/support/demo-users.js';
import type { RedisServer } from '../../support/redis-server.js';
import {
  claimedIn,
  communityPerTest,
  inCommunity,
  joined,
  onDuty,
  ownerRecord,
  withTestLiveness,
} from './community-duty.js';

export const JAMIE = ONE_DEPARTMENT;
export const WINDOW_MS = 12_000;
export const exportsOf = (sim: Sim) => sim.exports.bridge as BridgeServerExports;
export const onDutyEventsOf = (sim: Sim) =>
  sim.events.filter((event) => event.name === 'bridge:server:playerOnDuty').map((event) => event.args);

/** A community per test (its hooks are registered in the calling file), and how each test starts in it. */
export function heldShiftCommunity() {
  const world = communityPerTest();
  async function twoServers() {
    const redis = await world.redisServer();
    const community = await world.simCommunity({
      servers: 2,
      redisUrl: redis.url(),
      config: `Config.ResumeWindowMs = ${WINDOW_MS}`,
      convarsOf: withTestLiveness,
    });
    const [a, b] = community.sims as [Sim, Sim];
    await Promise.all([inCommunity(a), inCommunity(b)]);
    return { redis, community, a, b };
  }
  return {
    /** Two servers, and Jamie on duty on A with the claim in Redis: where every held-shift test starts. */
    async onDutyOnA() {
      const servers = await twoServers();
      const onA = await joined(servers.community, servers.a, JAMIE);
      await onDuty(servers.a, onA);
      await claimedIn(servers.redis, JAMIE);
      return { ...servers, onA };
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
