// Several simulated servers of one community in one test: two or three sims (each its own FXServer with its own
// KVP) against ONE mock panel and, when given, one real Redis. Every sim reaches the panel from 127.0.0.1, so they
// share the panel's per-IP rate limit exactly as real servers behind one NAT do.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMockPanel,
  type MockPanel,
  type MockPanelOptions,
  type MockPanelServer,
  startMockPanelServer,
} from '../../../mock-panel/index.js';
import type { RedisServer } from '../../../sim/community/redis-server.js';
import { startTcpProxy, type TcpProxy } from '../../../sim/community/tcp-proxy.js';
import { createSim, type Sim, type SimPlayer } from '../../../sim/index.js';
import { LUA_DUTY_MENU, REPO_ROOT, TOKEN } from './world.js';

/**
 * A resource folder of the bridge as an owner installs it: fxmanifest.lua, config.lua (with `config` appended) and a
 * copy of the freshly built dist/ (a copy, not a link: FXServer's Node sandbox reads only inside resource folders, so
 * dist/redis.cjs must really be there). `without` leaves files of dist/ out.
 */
export function bridgeFolder(options: { config?: string; without?: string[] } = {}): {
  dir: string;
  remove: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), 'bridge-community-'));
  const dir = join(root, 'bridge');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  cpSync(join(REPO_ROOT, 'fxmanifest.lua'), join(dir, 'fxmanifest.lua'));
  writeFileSync(
    join(dir, 'config.lua'),
    `${readFileSync(join(REPO_ROOT, 'config.lua'), 'utf8')}\n${options.config ?? ''}\n`,
  );
  cpSync(join(REPO_ROOT, 'dist'), join(dir, 'dist'), {
    recursive: true,
    filter: (from) => !(options.without ?? []).some((file) => from.endsWith(`/dist/${file}`)),
  });
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface SimCommunityOptions {
  /** How many servers (sims) share the panel. */
  servers: number;
  /** BRIDGE_REDIS_URL of every server; none: each bridge believes it is alone, as before issue 25. */
  redisUrl?: string;
  /**
   * The community's Redis, reached by each server through a TCP proxy of its own (`proxyOf`), to cut and heal that
   * server's link alone (sim/community/tcp-proxy.ts). Instead of `redisUrl`.
   */
  proxiedRedis?: RedisServer;
  /** The panel's per-IP limit (all sims are one IP). */
  rateLimit?: MockPanelOptions['rateLimit'];
  /** The panel's users (mock-panel/data/default.json when absent). */
  data?: MockPanelOptions['data'];
  /** Files of dist/ every server's folder lacks (a damaged install). */
  without?: string[];
  /** Lines appended to every server's config.lua. */
  config?: string;
  /** More convars of one server (by index), given the mock panel's address. */
  convarsOf?: (index: number, panelUrl: string) => Record<string, string>;
  /** The network of one server (by index): its scripts' `fetch` (SimOptions.fetch), to watch what it sends. */
  fetchOf?: (index: number) => typeof fetch;
}

export interface SimCommunity {
  panel: MockPanel;
  server: MockPanelServer;
  sims: Sim[];
  /** Each server's link to Redis, with `proxiedRedis`. */
  proxyOf(sim: Sim): TcpProxy;
  /** Each server's KVP directory (sim kvpDir): copy it to make a server from a copied folder (kvp-folder.ts). */
  kvpDirOf(sim: Sim): string;
  /** Starts one more server of the community (by default with an empty KVP of its own); it joins `sims`. */
  addServer(options?: { kvpDir?: string }): Promise<Sim>;
  /** Joins a player with a `chat:` identifier on one server (without waiting for the profile). */
  join(sim: Sim, chat: string, name?: string): Promise<SimPlayer>;
  /** Whether this player's client has its profile. */
  hasProfile(sim: Sim, player: SimPlayer): boolean;
  /** Status of every /api/leo request the panel received from any server, the start-up probes included. */
  statuses(): Array<number | null>;
  /**
   * The share of the panel's budget used: the requests it accepted in each of its rate-limit windows (a window opens
   * at the first request after the last one ended, as the panel counts), over the limit, the last window left out
   * (the storm may end before it does).
   */
  budgetUse(): { windows: number[]; use: number };
  consoleOf(sim: Sim): string;
  /** Until every server (or `only`) has said it is one of a community on Redis. */
  untilOnRedis(only?: Sim[]): Promise<void>;
  close(): Promise<void>;
}

export async function startSimCommunity(options: SimCommunityOptions): Promise<SimCommunity> {
  const panel = createMockPanel({ token: TOKEN, rateLimit: options.rateLimit, data: options.data });
  const server = await startMockPanelServer({ panel, port: 0 });
  const folders: Array<{ remove: () => void }> = [];
  const kvpDirs: string[] = [];
  const sims: Sim[] = [];
  const proxies: TcpProxy[] = [];
  const started = (sim: Sim) =>
    sim.until(() => sim.console.some((line) => line.text.includes('the panel at')), 10_000, 'the start-up probe');
  const redisUrlOf = async (): Promise<string | undefined> => {
    const redis = options.proxiedRedis;
    if (!redis) return options.redisUrl;
    // A server added later reaches Redis where the others do now: after a failover, the promoted replica.
    const proxy = await startTcpProxy(proxies[0]?.target ?? redis.port);
    proxies.push(proxy);
    return `redis://127.0.0.1:${proxy.port}/0`;
  };
  const addSim = async (kvpDir = mkdtempSync(join(tmpdir(), 'bridge-community-kvp-'))): Promise<Sim> => {
    const index = sims.length;
    const folder = bridgeFolder({ config: options.config, without: options.without });
    folders.push(folder);
    kvpDirs.push(kvpDir);
    const redisUrl = await redisUrlOf();
    const sim = await createSim({
      resources: [{ dir: folder.dir, name: 'bridge' }, LUA_DUTY_MENU],
      convars: {
        BRIDGE_API_BASE: server.url,
        BRIDGE_LEO_API_TOKEN: TOKEN,
        ...(redisUrl ? { BRIDGE_REDIS_URL: redisUrl } : {}),
        ...options.convarsOf?.(index, server.url),
      },
      kvpDir,
      clock: 'real',
      fetch: options.fetchOf?.(index),
    });
    sims.push(sim);
    return sim;
  };
  const closeAll = async () => {
    await Promise.all(sims.map((sim) => sim.stop()));
    await server.close();
    await Promise.all(proxies.map((proxy) => proxy.close()));
    for (const folder of folders) folder.remove();
    for (const dir of kvpDirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < options.servers; index++) await addSim();
    await Promise.all(sims.map(started));
  } catch (error) {
    await closeAll();
    throw error;
  }
  const consoleOf = (sim: Sim) => sim.console.map((line) => line.text).join('\n');
  const profileOf = (sim: Sim, player: SimPlayer) =>
    sim.events.some((event) => event.name === 'bridge:client:profile' && event.player === player.id);
  return {
    panel,
    server,
    sims,
    proxyOf(sim) {
      const proxy = proxies[sims.indexOf(sim)];
      if (!proxy) throw new Error('that server reaches Redis without a proxy (proxiedRedis)');
      return proxy;
    },
    kvpDirOf(sim) {
      const dir = kvpDirs[sims.indexOf(sim)];
      if (!dir) throw new Error('not a server of this community');
      return dir;
    },
    async addServer({ kvpDir } = {}) {
      const sim = await addSim(kvpDir);
      await started(sim);
      return sim;
    },
    join: (sim, chat, name = 'Player') =>
      sim.join({ name, identifiers: [`license:${chat.padStart(16, '0').slice(-16)}`, `chat:${chat}`] }),
    hasProfile: profileOf,
    statuses: () => panel.controls.requests().map((request) => request.status),
    budgetUse() {
      const limit = options.rateLimit?.limit ?? 200;
      const windowMs = options.rateLimit?.windowMs ?? 60_000;
      const windows: number[] = [];
      let endsAt = Number.NEGATIVE_INFINITY;
      for (const request of panel.controls.requests()) {
        const at = Date.parse(request.time);
        if (at >= endsAt) {
          windows.push(0);
          endsAt = at + windowMs;
        }
        if (request.status !== 429) windows[windows.length - 1] = (windows.at(-1) ?? 0) + 1;
      }
      const full = windows.slice(0, -1);
      return { windows, use: full.length === 0 ? 1 : full.reduce((sum, n) => sum + n, 0) / (limit * full.length) };
    },
    consoleOf,
    async untilOnRedis(only = sims) {
      await Promise.all(
        only.map((sim) => sim.until(() => consoleOf(sim).includes('one of a community on Redis'), 10_000, 'Redis')),
      );
    },
    close: closeAll,
  };
}
