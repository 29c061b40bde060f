import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockPanel, type MockPanel, startMockPanelServer } from '../../mock-panel/index.js';
import type { DutyOutcome, ProfilePayload } from '../../shared/events.js';
import { createSim, type Sim, type SimPlayer } from '../../sim/index.js';
import { createPanelFetch, type PanelTraffic } from './panel-fetch.js';
import type { Population } from './population.js';

export const TOKEN = 'bench-panel-token-4c1e9a7b2d';

export interface BenchWorldOptions {
  /** The resource folder to load as `bridge` (the bridge or the naive baseline). */
  resource: string;
  users: Population;
  /** `virtual`: in-process panel, simulated time. `real`: the panel over loopback HTTP, wall-clock time. */
  clock: 'virtual' | 'real';
  /** Latency the in-process panel adds to each answer (virtual runs). */
  latencyMs: number;
  /** The panel's limit per client IP and minute; 200, as the spec says, unless a scenario needs otherwise. */
  limitPerMinute?: number;
  /** More resources the server runs beside the bridge (txAdmin's monitor, say). */
  resources?: Array<{ dir: string; name: string }>;
}

/** The bridge's client exports as a JS resource calls them (the naive baseline ships the same client). */
interface BridgeClientExports {
  IsPlayerOnDuty(): boolean;
  GetDutyOptions(): { ok: boolean; departments: Array<{ setActive: () => boolean }> };
  UpdatePlayerDuty(status: boolean, callback: (outcome: DutyOutcome) => void): boolean;
}

interface DutyToggle {
  index: number;
  on: boolean;
  at: number;
  answeredAt?: number;
  outcome?: DutyOutcome;
}

/**
 * A simulated FXServer running one resource as `bridge`, the mock panel it talks to, and the players of a
 * population, driven by index. Records what a benchmark measures: panel traffic, when each player's profile
 * arrived, every duty toggle with its latency, and the duty changes the game made (the bridge's server events).
 */
export class BenchWorld {
  readonly toggles: DutyToggle[] = [];
  readonly profileLoadedAt = new Map<number, number>();
  /** Profiles the clients received (each player's every one, not only the first). */
  profileArrivals = 0;
  /** Duty changes the game made, per chat id (from bridge:server:playerOnDuty / playerOffDuty). */
  readonly gameOns = new Map<string, number>();
  readonly gameOffs = new Map<string, number>();
  private readonly players = new Map<number, SimPlayer>();
  private readonly indexOfSrc = new Map<number, number>();
  private closeServer: () => Promise<void> = async () => {};

  private constructor(
    readonly sim: Sim,
    readonly panel: MockPanel,
    readonly traffic: PanelTraffic,
    private readonly users: Population,
    private readonly kvpDir: string,
    private readonly restoreFetch: () => void,
  ) {
    this.listen();
  }

  static async start(options: BenchWorldOptions): Promise<BenchWorld> {
    let now = () => Date.now();
    const panel = createMockPanel({
      token: TOKEN,
      data: options.users.data,
      now: () => now(),
      ...(options.limitPerMinute === undefined ? {} : { rateLimit: { limit: options.limitPerMinute } }),
    });
    const kvpDir = mkdtempSync(join(tmpdir(), 'bridge-bench-kvp-'));
    const originalFetch = globalThis.fetch;
    let convars: Record<string, string>;
    let traffic: PanelTraffic;
    let closeServer = async () => {};
    if (options.clock === 'virtual') {
      // The simulated server's Node takes its global fetch from the host when the resource starts.
      const inProcess = createPanelFetch({ panel, now: () => now(), latencyMs: options.latencyMs });
      globalThis.fetch = inProcess.fetch;
      traffic = inProcess.traffic;
      closeServer = async () => inProcess.close();
      convars = { BRIDGE_API_BASE: 'http://panel.bench', BRIDGE_LEO_API_TOKEN: TOKEN };
    } else {
      const server = await startMockPanelServer({ panel, port: 0 });
      closeServer = () => server.close();
      const byStatus = new Map<number | 'network', number>();
      traffic = {
        get requests() {
          return panel.store.requests.list().length;
        },
        byStatus,
        count: (status) => panel.store.requests.list().filter((entry) => (entry.status ?? 'network') === status).length,
      };
      convars = { BRIDGE_API_BASE: server.url, BRIDGE_LEO_API_TOKEN: TOKEN };
    }
    const sim = await createSim({
      resources: [{ dir: options.resource, name: 'bridge' }, ...(options.resources ?? [])],
      convars,
      kvpDir,
      clock: options.clock,
      recordEvents: false,
      chat: false,
    });
    now = () => sim.now();
    const world = new BenchWorld(sim, panel, traffic, options.users, kvpDir, () => {
      globalThis.fetch = originalFetch;
    });
    world.closeServer = closeServer;
    return world;
  }

  get now(): number {
    return this.sim.now();
  }

  chatIdOf(index: number): string {
    return this.users.members[index]?.chatId as string;
  }

  /** Connects player `index`; their client asks for the profile by itself, as the real one does. */
  async join(index: number): Promise<void> {
    const member = this.users.members[index];
    if (!member) throw new Error(`no player ${index}`);
    const player = await this.sim.join({ name: member.player.name, identifiers: member.player.identifiers });
    this.players.set(index, player);
    this.indexOfSrc.set(player.id, index);
    player.on('bridge:client:profile', (profile) => {
      if (!(profile as ProfilePayload).ok) return;
      this.profileArrivals += 1;
      if (!this.profileLoadedAt.has(index)) this.profileLoadedAt.set(index, this.now);
    });
  }

  isConnected(index: number): boolean {
    return this.players.get(index)?.connected ?? false;
  }

  /** Opens the duty menu and goes on duty for the player's department (a no-op without a loaded profile). */
  goOnDuty(index: number): boolean {
    const bridge = this.exportsOf(index);
    if (!bridge) return false;
    const options = bridge.GetDutyOptions();
    if (!options.ok || !options.departments[0]) return false;
    options.departments[0].setActive();
    return this.toggle(index, true);
  }

  goOffDuty(index: number): boolean {
    return this.toggle(index, false);
  }

  isOnDuty(index: number): boolean {
    return this.exportsOf(index)?.IsPlayerOnDuty() === true;
  }

  /** Requests waiting in the bridge's queues, from `bridge status`; undefined when the resource has no such command. */
  queuedRequests(): number | undefined {
    const mark = this.sim.console.length;
    this.sim.command('bridge status');
    const line = this.sim.console
      .slice(mark)
      .map((entry) => entry.text)
      .find((text) => text.startsWith('queues'));
    if (!line) return undefined;
    const counts = line.split(';')[0]?.match(/\d+/g) ?? [];
    return counts.reduce((sum, count) => sum + Number(count), 0);
  }

  /** A new server process on the same KVP: everyone is dropped, the resource stops and starts again. */
  async restart(): Promise<void> {
    await this.sim.restart();
    this.players.clear();
    this.indexOfSrc.clear();
    this.listen();
  }

  /** Duty changes the game made that the panel's session book does not show. */
  lostDutyRecords(): number {
    let lost = 0;
    for (const member of this.users.members) {
      const sessions = this.panel.controls.sessions(member.chatId);
      const ended = sessions.filter((session) => session.endedAt !== null).length;
      lost += Math.max(0, (this.gameOns.get(member.chatId) ?? 0) - sessions.length);
      lost += Math.max(0, (this.gameOffs.get(member.chatId) ?? 0) - ended);
    }
    return lost;
  }

  async close(): Promise<void> {
    await this.sim.stop();
    this.restoreFetch();
    await this.closeServer();
    rmSync(this.kvpDir, { recursive: true, force: true });
  }

  private exportsOf(index: number): BridgeClientExports | undefined {
    const player = this.players.get(index);
    return player?.connected ? (player.exports.bridge as BridgeClientExports) : undefined;
  }

  private toggle(index: number, on: boolean): boolean {
    const bridge = this.exportsOf(index);
    if (!bridge) return false;
    const toggle: DutyToggle = { index, on, at: this.now };
    this.toggles.push(toggle);
    return bridge.UpdatePlayerDuty(on, (outcome) => {
      toggle.answeredAt = this.now;
      toggle.outcome = outcome;
    });
  }

  private listen(): void {
    const count = (map: Map<string, number>) => (args: unknown[]) => {
      const index = this.indexOfSrc.get(Number(args[0]));
      if (index === undefined) return;
      const chatId = this.chatIdOf(index);
      map.set(chatId, (map.get(chatId) ?? 0) + 1);
    };
    this.sim.on('bridge:server:playerOnDuty', count(this.gameOns));
    this.sim.on('bridge:server:playerOffDuty', count(this.gameOffs));
  }
}
