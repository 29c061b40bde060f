// What the several-servers duty tests read and do, shared by community-duty-owner, community-faults and
// community-peers: the panel's duty book is the witness, each game's duty the other side of it, and the owner
// record in the community's Redis the fence between them.
import { afterEach, beforeEach, expect } from 'vitest';
import { type RedisReplica, startReplica } from '../../../sim/community/redis-replica.js';
import { type RedisServer, type RedisServerOptions, startRedisServer } from '../../../sim/community/redis-server.js';
import type { Sim, SimPlayer } from '../../../sim/index.js';
import { bridgeOf, changeDuty } from './bridge-exports.js';
import { type SimCommunity, type SimCommunityOptions, startSimCommunity } from './community.js';

/** Short enough for a test: a server that stops renewing is taken for gone after 3 s (the default is 30 s). */
export const TEST_LIVENESS_MS = 3_000;
export const LIVENESS_CONVAR = 'BRIDGE_REDIS_LIVENESS_MS';
/** The convars of a server with the test's liveness: `convarsOf` of a SimCommunity. */
export const withTestLiveness = () => ({ [LIVENESS_CONVAR]: String(TEST_LIVENESS_MS) });

export const linesOf = (sim: Sim, pattern: RegExp): string[] =>
  sim.console.map((line) => line.text).filter((text) => pattern.test(text));

export async function inCommunity(sim: Sim): Promise<void> {
  await sim.until(() => linesOf(sim, /one of a community on Redis/).length > 0, 10_000, 'Redis');
}

/** Joins the account on a server and waits for its profile. */
export async function joined(community: SimCommunity, sim: Sim, chat: string): Promise<SimPlayer> {
  const player = await community.join(sim, chat, 'Player');
  await sim.until(() => community.hasProfile(sim, player), 10_000, 'the profile');
  return player;
}

export async function onDuty(sim: Sim, player: SimPlayer, departmentIndex = 0): Promise<void> {
  expect(await changeDuty(sim, player, true, departmentIndex)).toMatchObject({ ok: true, onDuty: true });
}

export async function offDuty(sim: Sim, player: SimPlayer): Promise<void> {
  expect(await changeDuty(sim, player, false)).toMatchObject({ ok: true, onDuty: false });
}

/** Whether the player's own client shows them on duty (the client export). */
export const gameOnDuty = (player: SimPlayer): boolean => player.connected && bridgeOf(player).IsPlayerOnDuty();

export const offDutyEventsOf = (sim: Sim, player: SimPlayer): unknown[] =>
  sim.events
    .filter((event) => event.name === 'bridge:client:offDuty' && event.player === player.id)
    .map((event) => event.args);

/** The open duty sessions of an account at the panel. */
export const openAt = (community: SimCommunity, chat: string) =>
  community.panel.controls.sessions(chat).filter((session) => session.endedAt === null);

/** Every duty call the panel answered 200, as `on` / `off`, from any server. */
export const dutyCallsOf = (community: SimCommunity): string[] =>
  community.panel.controls
    .requests()
    .filter((request) => request.path.includes('/duty/') && request.status === 200)
    .map((request) => request.path.replace(/^.*\/duty\//, ''));

/** The account's owner record in the community's Redis, as it stands (null when there is none). */
export async function ownerRecord(redis: RedisServer, chat: string): Promise<Record<string, unknown> | null> {
  const keys = (await redis.command('KEYS', `bridge:*:duty-owner:${chat}`)) as string[];
  const key = keys.find((name) => name.endsWith(`:duty-owner:${chat}`));
  if (!key) return null;
  const raw = (await redis.command('GET', key)) as string | null;
  return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
}

/** Until the account's claim is live in Redis: it is written a moment after the panel took the `on`. */
export async function claimedIn(redis: RedisServer, chat: string): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if ((await ownerRecord(redis, chat))?.state === 'live') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the claim of ${chat} was never written`);
}

/** This server's identity in the community, as its KVP keeps it. */
export const identityOf = (sim: Sim): string | undefined => {
  const line = sim.console.map((l) => l.text).find((text) => /this server is [0-9a-f]{16} in the community/.test(text));
  return /this server is ([0-9a-f]{16})/.exec(line ?? '')?.[1];
};

/** The lines of `bridge status`, typed in the server's console. */
export function statusOf(sim: Sim): string[] {
  const before = sim.console.length;
  sim.command('bridge status');
  return sim.console.slice(before).map((line) => line.text);
}

/**
 * Until the community is at rest: every running server's outbox is empty (nothing pending, nothing held for Redis),
 * and neither the panel's duty book nor any owner record in Redis has changed for `quietMs` (long enough for a
 * restate after a lease: the request timeout plus 7 s, and the 8 s settle after a reconnection). For the checks
 * that only hold once the community has settled after a fault.
 */
export async function untilQuiet(
  community: SimCommunity,
  redis: RedisServer,
  { quietMs = 15_000, capMs = 120_000 } = {},
): Promise<void> {
  const started = Date.now();
  let last = '';
  let since = Date.now();
  for (;;) {
    const outboxes = community.sims.map((sim) => {
      try {
        return statusOf(sim).find((line) => line.startsWith('outbox')) ?? '';
      } catch {
        return 'stopped';
      }
    });
    const records = (await redis.command('KEYS', 'bridge:*:duty-owner:*').catch(() => [])) as string[];
    const owners = await Promise.all(records.sort().map((key) => redis.command('GET', key).catch(() => null)));
    const state = JSON.stringify([
      outboxes,
      owners,
      community.panel.controls.sessions().length,
      dutyCallsOf(community),
    ]);
    const idle = outboxes.every((line) => line === 'stopped' || line === '' || /^outbox +0 duty call/.test(line));
    if (state !== last || !idle) {
      last = state;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
    if (Date.now() - started > capMs) throw new Error(`the community never came to rest:\n${outboxes.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Prints what each server said when a test fails, to read the failure by. */
export function printConsoles(community: SimCommunity | undefined): void {
  for (const [index, sim] of (community?.sims ?? []).entries()) {
    process.stderr.write(`server ${index}:\n${community?.consoleOf(sim)}\n`);
  }
}

/** What a test of a file using communityPerTest() starts; each is stopped after the test, whatever happened. */
export interface CommunityOfTest {
  redisServer(options?: RedisServerOptions): Promise<RedisServer>;
  simCommunity(options: SimCommunityOptions): Promise<SimCommunity>;
  replicaOf(primary: RedisServer): Promise<RedisReplica>;
}

/**
 * One community, its Redis and any replica per test, started through the returned functions and stopped after the
 * test; when it fails, what each server said is printed (the failure hook runs after the stop, so the consoles are
 * kept for it).
 */
export function communityPerTest(): CommunityOfTest {
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
  return {
    async redisServer(options) {
      redis = await startRedisServer(options);
      return redis;
    },
    async simCommunity(options) {
      community = await startSimCommunity(options);
      return community;
    },
    async replicaOf(primary) {
      replica = await startReplica(primary);
      return replica;
    },
  };
}
