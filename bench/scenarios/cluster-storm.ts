// A community's join storm (issue 25): several simulated servers behind one IP, each with its own players joining
// at once, against ONE mock panel with its per-IP limit, with or without one real Redis, and with that Redis killed
// for a while in the middle of the storm. Real time throughout: the community's budget runs on Redis's clock (TIME),
// which no virtual clock moves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPanel, startMockPanelServer } from '../../mock-panel/index.js';
import type { DutyOutcome, ProfilePayload } from '../../shared/events.js';
import { type RedisServer, startRedisServer } from '../../sim/community/redis-server.js';
import { createSim, type Sim, type SimPlayer } from '../../sim/index.js';
import { TOKEN } from '../support/bench-world.js';
import { population } from '../support/population.js';
import { percentile, seededRandom } from '../support/stats.js';
import { meterThreadHold, type ThreadHoldResult } from '../support/thread-hold.js';

export type ClusterRedis = 'none' | 'up' | 'killed';

export interface ClusterOptions {
  /** `none`: each bridge alone; `up`: one Redis for all; `killed`: that Redis killed (-9) mid-storm, then back empty. */
  redis: ClusterRedis;
  /** The bridge's resource folder (with dist/redis.cjs). */
  resource: string;
  servers: number;
  playersPerServer: number;
  /** The panel's limit per minute for the one IP every server shares. */
  limitPerMinute: number;
  /** Each server's players join evenly over this span. */
  arrivalSpanMs: number;
  /** How long Redis stays dead in the `killed` run; it is killed when half the floor has passed. */
  redisDownMs: number;
  /** Give up waiting for the last profile after this long. */
  capMs: number;
}

export interface ClusterResult {
  redis: ClusterRedis;
  servers: number;
  players: number;
  requests: number;
  tooManyRequests: number;
  /**
   * Requests the panel accepted in each of its rate-limit windows that ended before the last profile arrived, over
   * what those windows allowed: the share of the budget spent usefully while players waited.
   */
  budgetUse: number | undefined;
  fullWindows: number;
  /**
   * The time the budget alone forces for one request per player: the panel's fixed windows, from the one its first
   * request opened (the servers' start-up probes, before the storm), let `limit` requests through each; the last
   * profile can come no sooner than the window that holds the players' last request opens, nor before the last
   * player joined.
   */
  floorS: number;
  profilesLoaded: number;
  /** From the first join until 50 % / 99 % / all of the players had their profile. */
  profileP50S: number | undefined;
  profileP99S: number | undefined;
  allProfilesAfterS: number | undefined;
  /** Duty changes the games made, and those the panel's session book does not show. */
  dutyChanges: number;
  togglesUnanswered: number;
  /** Duty toggles the bridge answered with a refusal, by error code (a refused toggle changes nothing). */
  togglesRefused: Record<string, number>;
  /** Players without a profile at the end, by what their client last got (`no answer`, or the error code). */
  profilesMissing: Record<string, number>;
  lostDutyRecords: number;
  /** The `killed` run: when Redis was killed and started again (seconds after the first join). */
  redisDown?: { fromS: number; toS: number };
  /** Every server's bridge in one process: the longest time one of them held its server's thread. */
  threadHold: ThreadHoldResult;
}

interface Member {
  chatId: string;
  index: number;
  server: number;
  player?: SimPlayer;
  loadedAt?: number;
  /** The error of the last profile the client got that was not ok. */
  profileError?: string;
}

const STEP_MS = 50;
/** The panel's window: `limitPerMinute` requests a minute. */
const WINDOW_MS = 60_000;

export async function runClusterStorm(options: ClusterOptions): Promise<ClusterResult> {
  const total = options.servers * options.playersPerServer;
  const users = population(total);
  const panel = createMockPanel({
    token: TOKEN,
    data: users.data,
    rateLimit: { limit: options.limitPerMinute, windowMs: WINDOW_MS },
  });
  // Every hit of the per-IP limiter: the panel's own windows, each counted as it counts them.
  const windows = new Map<number, { opened: number; hits: number }>();
  const limiter = panel.store.rateLimiter;
  const hit = limiter.hit.bind(limiter);
  limiter.hit = (key) => {
    const info = hit(key);
    const window = windows.get(info.resetTimeMs) ?? { opened: performance.now(), hits: 0 };
    window.hits += 1;
    windows.set(info.resetTimeMs, window);
    return info;
  };
  const server = await startMockPanelServer({ panel, port: 0 });
  let redis: RedisServer | undefined;
  const sims: Sim[] = [];
  const kvpDirs: string[] = [];
  try {
    if (options.redis !== 'none') redis = await startRedisServer();
    for (let index = 0; index < options.servers; index++) {
      const kvpDir = mkdtempSync(join(tmpdir(), 'bridge-bench-cluster-kvp-'));
      kvpDirs.push(kvpDir);
      sims.push(
        await createSim({
          resources: [{ dir: options.resource, name: 'bridge' }],
          convars: {
            BRIDGE_API_BASE: server.url,
            BRIDGE_LEO_API_TOKEN: TOKEN,
            ...(redis ? { BRIDGE_REDIS_URL: redis.url() } : {}),
          },
          kvpDir,
          clock: 'real',
          recordEvents: false,
          chat: false,
        }),
      );
    }
    await Promise.all(
      sims.map((sim) => sim.until(() => sim.console.some((line) => line.text.includes('the panel at')), 30_000)),
    );
    return await storm(options, { sims, redis, users, panel, windows, total });
  } finally {
    await Promise.all(sims.map((sim) => sim.stop()));
    await redis?.stop();
    await server.close();
    for (const dir of kvpDirs) rmSync(dir, { recursive: true, force: true });
  }
}

async function storm(
  options: ClusterOptions,
  world: {
    sims: Sim[];
    redis: RedisServer | undefined;
    users: ReturnType<typeof population>;
    panel: ReturnType<typeof createMockPanel>;
    windows: Map<number, { opened: number; hits: number }>;
    total: number;
  },
): Promise<ClusterResult> {
  const { sims, redis, users, panel, windows, total } = world;
  const clock = sims[0] as Sim;
  const random = seededRandom(total);
  // The panel's windows so far: the start-up probes', opened before the storm.
  const startEpoch = Date.now();
  const firstWindow = windows.size > 0 ? Math.min(...windows.keys()) - WINDOW_MS : startEpoch;
  const before = [...windows.values()].reduce((sum, window) => sum + window.hits, 0);
  const lastWindowOpens = firstWindow + (Math.ceil((total + before) / options.limitPerMinute) - 1) * WINDOW_MS;
  const floorS = Math.max(options.arrivalSpanMs, lastWindowOpens - startEpoch) / 1000;
  const members: Member[] = users.members.map((member, index) => ({
    chatId: member.chatId,
    index,
    server: Math.floor(index / options.playersPerServer),
  }));
  const gameOns = new Map<string, number>();
  const gameOffs = new Map<string, number>();
  const bySrc = sims.map(() => new Map<number, Member>());
  sims.forEach((sim, server) => {
    const count = (map: Map<string, number>) => (args: unknown[]) => {
      const member = bySrc[server]?.get(Number(args[0]));
      if (member) map.set(member.chatId, (map.get(member.chatId) ?? 0) + 1);
    };
    sim.on('bridge:server:playerOnDuty', count(gameOns));
    sim.on('bridge:server:playerOffDuty', count(gameOffs));
  });
  const toggles: Array<{ answered: boolean; refused?: string }> = [];
  const toggle = (member: Member, on: boolean) => {
    const bridge = member.player?.connected ? (member.player.exports.bridge as ClientExports) : undefined;
    if (!bridge) return false;
    if (on) {
      const menu = bridge.GetDutyOptions();
      if (!menu.ok || !menu.departments[0]) return false;
      menu.departments[0].setActive();
    }
    const record: (typeof toggles)[number] = { answered: false };
    toggles.push(record);
    return bridge.UpdatePlayerDuty(on, (outcome) => {
      record.answered = true;
      if (!outcome.ok) record.refused = outcome.error;
    });
  };

  const meter = meterThreadHold(
    sims,
    `${options.servers} × ${options.playersPerServer} players, Redis ${options.redis}`,
  );
  const start = performance.now();
  const now = () => performance.now() - start;
  const perServer = options.playersPerServer;
  const actions: Array<{ at: number; run: () => void }> = [];
  const scheduled = new Set<number>();
  let joined = 0;
  let allLoadedAt: number | undefined;
  let redisDown: { fromS: number; toS: number } | undefined;
  let redisBack: Promise<void> | undefined;
  const joinAt = (slot: number) => (slot * options.arrivalSpanMs) / perServer;

  let hold: ThreadHoldResult;
  try {
    while (now() < options.capMs) {
      // Each server's players join evenly over the span, the servers in step.
      while (joined < perServer && joinAt(joined) <= now()) {
        const slot = joined++;
        await Promise.all(
          sims.map(async (sim, server) => {
            const member = members[server * perServer + slot] as Member;
            const { player: who } = users.members[member.index] as (typeof users.members)[number];
            const player = await sim.join({ name: who.name, identifiers: who.identifiers });
            member.player = player;
            bySrc[server]?.set(player.id, member);
            player.on('bridge:client:profile', (profile) => {
              const payload = profile as ProfilePayload;
              if (!payload.ok) member.profileError = payload.error;
              else if (member.loadedAt === undefined) member.loadedAt = now();
            });
          }),
        );
      }
      // As in the join storm: a quarter of the department members go on duty within a minute of their profile,
      // half of those off again one to two minutes later.
      for (const member of members) {
        if (member.loadedAt === undefined || scheduled.has(member.index)) continue;
        scheduled.add(member.index);
        if (!users.members[member.index]?.department || random() >= 0.25) continue;
        const offAfter = random() < 0.5 ? 60_000 + random() * 60_000 : undefined;
        actions.push({
          at: member.loadedAt + random() * 60_000,
          run: () => {
            if (!toggle(member, true) || offAfter === undefined) return;
            actions.push({ at: now() + offAfter, run: () => toggle(member, false) });
          },
        });
      }
      for (const action of actions.filter((candidate) => candidate.at <= now())) {
        actions.splice(actions.indexOf(action), 1);
        action.run();
      }
      if (redis && options.redis === 'killed' && !redisDown && now() >= (floorS * 1000) / 2) {
        await redis.kill();
        redisDown = { fromS: now() / 1000, toS: Number.NaN };
        const down = redisDown;
        redisBack = new Promise<void>((resolve) => setTimeout(resolve, options.redisDownMs)).then(async () => {
          await redis.restart();
          down.toS = now() / 1000;
        });
      }
      if (allLoadedAt === undefined && members.every((member) => member.loadedAt !== undefined)) allLoadedAt = now();
      if (allLoadedAt !== undefined && actions.length === 0 && toggles.every((record) => record.answered)) break;
      await clock.advance(STEP_MS);
    }
    await redisBack;
    // The last calls land (an outbox retrying after Redis came back, a duty off sent as the storm ended).
    await clock.advance(15_000);
  } finally {
    hold = await meter.stop();
  }

  const counts = panel.store.requests.counts();
  // The panel's windows that opened after the first join and ended before the last profile arrived (the panel's
  // clock is epoch ms, the storm's performance.now()).
  const epochOf = (at: number) => Date.now() - (performance.now() - at);
  const stormEndEpoch = epochOf(start + (allLoadedAt ?? now()));
  const full = [...windows].filter(([resetAt, window]) => window.opened >= start && resetAt <= stormEndEpoch);
  const limit = options.limitPerMinute;
  const accepted = full.reduce((sum, [, window]) => sum + Math.min(window.hits, limit), 0);
  const arrivals = members.flatMap((member) => (member.loadedAt === undefined ? [] : [member.loadedAt / 1000]));
  let lost = 0;
  let dutyChanges = 0;
  for (const member of members) {
    const sessions = panel.controls.sessions(member.chatId);
    const ended = sessions.filter((session) => session.endedAt !== null).length;
    const ons = gameOns.get(member.chatId) ?? 0;
    const offs = gameOffs.get(member.chatId) ?? 0;
    dutyChanges += ons + offs;
    lost += Math.max(0, ons - sessions.length) + Math.max(0, offs - ended);
  }
  return {
    redis: options.redis,
    servers: options.servers,
    players: total,
    requests: counts.requests,
    tooManyRequests: counts.tooManyRequests,
    budgetUse: full.length > 0 ? accepted / (limit * full.length) : undefined,
    fullWindows: full.length,
    floorS,
    profilesLoaded: arrivals.length,
    profileP50S: percentile(arrivals, 0.5),
    profileP99S: arrivals.length === total ? percentile(arrivals, 0.99) : undefined,
    allProfilesAfterS: allLoadedAt === undefined ? undefined : allLoadedAt / 1000,
    dutyChanges,
    togglesUnanswered: toggles.filter((record) => !record.answered).length,
    togglesRefused: tally(toggles.flatMap((record) => (record.refused ? [record.refused] : []))),
    profilesMissing: tally(
      members.filter((member) => member.loadedAt === undefined).map((member) => member.profileError ?? 'no answer'),
    ),
    lostDutyRecords: lost,
    ...(redisDown ? { redisDown } : {}),
    threadHold: hold,
  };
}

const tally = (values: readonly string[]) => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

/** The bridge's client exports as a duty menu calls them. */
interface ClientExports {
  GetDutyOptions(): { ok: boolean; departments: Array<{ setActive: () => boolean }> };
  UpdatePlayerDuty(status: boolean, callback: (outcome: DutyOutcome) => void): boolean;
}
