import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpHandler } from 'msw';
import {
  createMockPanel,
  type MockPanel,
  type MockPanelOptions,
  type MockPanelServer,
  startMockPanelServer,
} from '../../../mock-panel/index.js';
import { createSim, type Sim, type SimPlayer } from '../../../sim/index.js';

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
export const LUA_DUTY_MENU = join(import.meta.dirname, '..', 'fixtures', 'lua_duty_menu');
export const TOKEN = 'e2e-panel-token-7f3a9c1d5b';

export interface WorldOptions {
  /** Convars; by default the two that point the bridge at the mock panel. */
  convars?: Record<string, string>;
  /** Convars set besides the two that point the bridge at the mock panel. */
  moreConvars?: Record<string, string>;
  /** The owner's mistake of `setr BRIDGE_LEO_API_TOKEN ...`: the default token convar, replicated to clients. */
  replicateToken?: boolean;
  /** Lines appended to the shipped config.lua (e.g. `Config.RefreshIntervalMs = 60000`). */
  config?: string;
  panel?: Partial<MockPanelOptions>;
  /** Handlers the panel's server runs before the panel's own (one that watches requests and passes them on). */
  panelHandlers?: HttpHandler[];
  clock?: 'virtual' | 'real';
  /** The bridge folder to load (a packaged copy, say); by default the repository root. */
  bridgeDir?: string;
  /** Resource KVP on disk from before this server started (the caller removes it); by default a fresh one. */
  kvpDir?: string;
  /** More resources, started after the bridge and the Lua duty menu (an example, a stub of ox_lib). */
  resources?: Array<string | { dir: string; name?: string }>;
  /** server.cfg permission lines (`add_ace …`, `add_principal …`), run again by every restart. */
  aces?: string[];
}

export interface World {
  panel: MockPanel;
  server: MockPanelServer;
  sim: Sim;
  /** Joins a player with a `chat:` identifier (or exactly the identifiers given) and waits for their profile. */
  join(chat: string | { identifiers: string[] }, name?: string): Promise<SimPlayer>;
  /** `METHOD path status` of every /api/leo request the panel received, the start-up probe left out. */
  requests(): string[];
  /** Arguments of every event of that name dispatched on a side (a client's events: pass its player). */
  eventArgs(name: string, player?: SimPlayer): unknown[][];
  consoleText(): string;
  close(): Promise<void>;
}

/**
 * A copy of the resource whose config.lua has `extra` appended; dist/ is a copy of the freshly built one (a copy, not a
 * link: FXServer's Node sandbox reads only inside resource folders, so the optional modules dist/server.js requires,
 * dist/metrics.cjs and the like, must really be there).
 */
function bridgeWithConfig(extra: string, source = REPO_ROOT): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-e2e-'));
  const resource = join(dir, 'bridge');
  cpSync(join(source, 'fxmanifest.lua'), join(resource, 'fxmanifest.lua'), { recursive: true });
  writeFileSync(join(resource, 'config.lua'), `${readFileSync(join(source, 'config.lua'), 'utf8')}\n${extra}\n`);
  cpSync(join(source, 'dist'), join(resource, 'dist'), { recursive: true });
  return { dir: resource, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  let simNow = () => Date.now();
  const panel = createMockPanel({ token: TOKEN, now: () => simNow(), ...options.panel });
  const server = await startMockPanelServer({ panel, port: 0, handlers: options.panelHandlers });
  const bridgeDir = options.bridgeDir ?? REPO_ROOT;
  const resource = options.config ? bridgeWithConfig(options.config, bridgeDir) : undefined;
  const kvpDir = options.kvpDir ?? mkdtempSync(join(tmpdir(), 'bridge-e2e-kvp-'));
  const sim = await createSim({
    resources: [{ dir: resource?.dir ?? bridgeDir, name: 'bridge' }, LUA_DUTY_MENU, ...(options.resources ?? [])],
    convars: options.convars ?? {
      BRIDGE_API_BASE: server.url,
      BRIDGE_LEO_API_TOKEN: { value: TOKEN, replicated: options.replicateToken ?? false },
      ...options.moreConvars,
    },
    kvpDir,
    clock: options.clock ?? 'real',
    aces: options.aces,
  });
  simNow = () => sim.now();
  // The probe's verdict is logged once its answer was read, so no test request overlaps it.
  const probeDone = () => sim.console.some((line) => line.text.includes('the panel at'));
  if (options.convars === undefined) await sim.until(probeDone, 5000, 'the start-up probe');
  const probes = panel.controls.requests().length;

  const eventArgs = (name: string, player?: SimPlayer) =>
    sim.events
      .filter((event) => event.name === name && (player ? event.player === player.id : event.side === 'server'))
      .map((event) => event.args);

  return {
    panel,
    server,
    sim,
    async join(chat, name = 'Player') {
      const identifiers = typeof chat === 'string' ? ['license:0123456789abcdef', `chat:${chat}`] : chat.identifiers;
      const player = await sim.join({ name, identifiers });
      await sim.until(() => eventArgs('bridge:client:profile', player).length > 0, 10_000, 'the profile');
      await sim.settle();
      return player;
    },
    requests: () =>
      panel.controls
        .requests()
        .slice(probes)
        .map((request) => `${request.method} ${request.path} ${request.status}`),
    eventArgs,
    consoleText: () => sim.console.map((line) => line.text).join('\n'),
    async close() {
      await sim.stop();
      await server.close();
      resource?.remove();
      if (options.kvpDir === undefined) rmSync(kvpDir, { recursive: true, force: true });
    },
  };
}
