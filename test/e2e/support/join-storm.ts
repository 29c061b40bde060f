// The join storm of the community budget tests (issue 25 item 2): every player of every server joins at once, all
// servers behind one IP against a panel allowing 20 requests per window. The window is 3 s so that a storm of three
// windows takes about 10 s; COMMUNITY_WINDOW_MS=10000 runs the 10-s window of docs/several-servers.md's figures.
import { population } from '../../../bench/support/population.js';
import type { SimCommunity } from './community.js';

export const RATE_LIMIT = { limit: 20, windowMs: Number(process.env.COMMUNITY_WINDOW_MS ?? 3_000) };
export const PLAYERS_PER_SERVER = 30;
// COMMUNITY_SERVERS=3 measures three servers (the figures in docs/several-servers.md).
export const SERVERS = Number(process.env.COMMUNITY_SERVERS ?? 2);
export const people = population(SERVERS * PLAYERS_PER_SERVER);

/**
 * Every player of every server joins at once; resolves when every client has its profile. `during` runs once this
 * many profiles have arrived (Redis killed mid-storm, say).
 */
export async function joinStorm(world: SimCommunity, during: Array<[number, () => Promise<void>]> = []) {
  const joined = await Promise.all(
    people.members.map(async (member, index) => {
      const sim = world.sims[index % SERVERS];
      if (!sim) throw new Error('no server');
      return { sim, player: await world.join(sim, member.chatId, member.player.name) };
    }),
  );
  const [first] = world.sims;
  const arrived = () => joined.filter(({ sim, player }) => world.hasProfile(sim, player)).length;
  for (const [profiles, act] of during) {
    await first?.until(() => arrived() >= profiles, 120_000, `${profiles} profiles`);
    await act();
  }
  await first?.until(
    () => joined.every(({ sim, player }) => world.hasProfile(sim, player)),
    120_000,
    'every profile of the storm',
  );
  const statuses = world.statuses();
  return { tooManyRequests: statuses.filter((status) => status === 429).length, ...world.budgetUse() };
}

export const reportStorm = (label: string, result: Awaited<ReturnType<typeof joinStorm>>) =>
  console.log(
    `[community budget] ${label}: ${result.tooManyRequests} × 429, budget use ${(result.use * 100).toFixed(1)} % (accepted per window: ${result.windows.join(', ')})`,
  );

export const STORM = `${SERVERS} servers behind one IP, ${PLAYERS_PER_SERVER} joins each, a panel allowing ${RATE_LIMIT.limit} requests per ${RATE_LIMIT.windowMs / 1000} s`;
