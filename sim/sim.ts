// The simulator's test API: createSim() boots a simulated FXServer with resource folders, players join and act,
// and the test observes console lines, script errors and every event. See docs/simulator.md.
import fs from 'node:fs';
import path from 'node:path';
import './natives/index.js';
import { describe } from './codec/msgpack.js';
import type { ClockMode } from './host/driver.js';
import type { HostWork } from './host/host-work.js';
import { startResource, stopResource } from './host/lifecycle.js';
import type { ConsoleLine, ScriptError, SimEvent } from './host/log.js';
import { World } from './host/world.js';
import type { ExportsProxy } from './js/host-runtime.js';
import { JsRuntime } from './js/js-runtime.js';
import type { TimerStats } from './js/timers.js';
import { SimPlayer } from './player.js';
import { connectPlayer, dropPlayer, type JoinOptions } from './server/connections.js';
import { cfgLines } from './server/console-line.js';
import { type SimHttpRequest, type SimHttpResponse, serveHttp } from './server/http.js';

export type ResourceOption = string | { dir: string; name?: string; start?: boolean };

export interface SimOptions {
  /** Resource folders, started in this order (the folder name is the resource name unless `name` is given). */
  resources: readonly ResourceOption[];
  /** server.cfg text (`set`, `setr`, `add_ace`, `ensure` …) or plain `set` convars. */
  convars?: string | Readonly<Record<string, string | { value: string; replicated?: boolean }>>;
  /** Extra console lines for permissions, e.g. `add_ace group.admin command.dutyrefresh allow`. */
  aces?: readonly string[];
  /** Where resource KVP is kept on disk; a restart on the same directory keeps it (default: in memory). */
  kvpDir?: string;
  /** 'real' (default; vitest fake timers make it virtual) or 'virtual' (only advance()/settle() move time). */
  clock?: ClockMode;
  serverFrameMs?: number;
  clientFrameMs?: number;
  /** Print console lines as they happen, or hand each to a function (default false). */
  echo?: boolean | ((line: ConsoleLine) => void);
  recordEvents?: boolean | ((name: string) => boolean);
  maxEvents?: number;
  /** A stand-in `chat` resource that records messages and suggestions on clients (default true). */
  chat?: boolean;
  /** FXServer's client→server event rate limits (default true). */
  rateLimits?: boolean;
  /**
   * The `fetch` server scripts call: this server machine's network (default: the host's). A test can watch what each
   * server sends and when it leaves, as a packet capture on that machine would.
   */
  fetch?: typeof fetch;
}

export class Sim {
  private readonly world: World;
  private readonly playersById = new Map<number, SimPlayer>();
  private stopped = false;
  /** The server process was killed (kill()): nothing is left to shut down. */
  private killed = false;

  /** Use createSim(). */
  constructor(private readonly options: SimOptions) {
    this.world = new World({
      clock: options.clock ?? 'real',
      serverFrameMs: options.serverFrameMs ?? 50,
      clientFrameMs: options.clientFrameMs ?? 16,
      kvpDir: options.kvpDir ?? null,
      chat: options.chat ?? true,
      rateLimits: options.rateLimits ?? true,
      echo: options.echo ?? false,
      recordEvents: options.recordEvents ?? true,
      maxEvents: options.maxEvents ?? 100_000,
      fetch: options.fetch,
    });
    this.world.dropPlayer = (player, reason, resource, code) => {
      dropPlayer(this.world, player, reason, resource, code);
      this.playersById.delete(player.id);
    };
    for (const entry of options.resources) {
      const { dir, name } = typeof entry === 'string' ? { dir: entry, name: undefined } : entry;
      const full = path.resolve(dir);
      if (!fs.existsSync(path.join(full, 'fxmanifest.lua'))) throw new Error(`sim: no fxmanifest.lua in ${full}`);
      const resourceName = name ?? path.basename(full);
      this.world.defs.set(resourceName, { name: resourceName, dir: full });
    }
  }

  /** @internal Runs the server.cfg, then starts every resource not started yet, in order. */
  async boot(): Promise<void> {
    const world = this.world;
    await world.lua.reserve(world.defs.size * 2 + 2);
    const convars = this.options.convars;
    if (typeof convars === 'string') for (const line of cfgLines(convars)) world.console(line);
    else if (convars) {
      for (const [name, value] of Object.entries(convars)) {
        if (typeof value === 'string') world.convars.set(name, value);
        else world.convars.set(name, value.value, { replicated: value.replicated ?? false });
      }
    }
    for (const line of this.options.aces ?? []) world.console(line);
    for (const entry of this.options.resources) {
      if (typeof entry !== 'string' && entry.start === false) continue;
      const name =
        typeof entry === 'string'
          ? path.basename(path.resolve(entry))
          : (entry.name ?? path.basename(path.resolve(entry.dir)));
      if (world.server.resources.get(name)?.state !== 'started')
        this.asConsole(() => startResource(world, world.server, name));
    }
    world.driver.start();
  }

  // --- what the test observes ----------------------------------------------------------------------------------

  get console(): readonly ConsoleLine[] {
    return this.world.log.console;
  }
  get errors(): readonly ScriptError[] {
    return this.world.log.errors;
  }
  get events(): readonly SimEvent[] {
    return this.world.log.events;
  }
  eventsNamed(name: string): SimEvent[] {
    return this.world.log.events.filter((e) => e.name === name);
  }
  /** Throws with every recorded script error (a test's way to say "nothing went wrong"). */
  assertNoErrors(): void {
    if (this.world.log.errors.length === 0) return;
    throw new Error(
      `sim: ${this.world.log.errors.length} script error(s):\n${this.world.log.errors.map((e) => e.text).join('\n---\n')}`,
    );
  }
  /**
   * What the simulator holds per player (players, clients, limits, scopes, the server's function references): a
   * player who left takes their share with them, as FXServer frees a client's state.
   */
  footprint(): Record<string, number> {
    return { ...this.world.footprint(), simPlayers: this.playersById.size };
  }
  /**
   * Opt-in accounting of the CPU the simulator spends for one resource's server scripts: natives, event routing and
   * fan-out, state bag replication, reference calls, frames and clients (FXServer's C++ and the players' machines).
   * `hostWork.start('bridge')`, then read `hostUs` and `switches` around the work measured (see docs/simulator.md).
   */
  get hostWork(): HostWork {
    return this.world.hostWork;
  }
  /**
   * What the JS timers of a resource's server scripts did since it started (timer.js, fivem-runtime.md §9): the frames
   * whose tick had anything waiting, the timers fired, the setTick calls, and what waits now. What resmon shows of a
   * resource that does nothing is this: FXServer calls its tick every frame, and timer.js returns at once while
   * nothing waits.
   */
  scriptTimers(resource: string): TimerStats {
    const total: TimerStats = { ticksWithWork: 0, timersFired: 0, tickerCalls: 0, pendingTimers: 0, tickers: 0 };
    for (const runtime of this.world.server.resources.get(resource)?.runtimes ?? []) {
      if (!(runtime instanceof JsRuntime)) continue;
      const stats = runtime.timerStats();
      for (const key of Object.keys(total) as (keyof TimerStats)[]) total[key] += stats[key];
    }
    return total;
  }
  /** Forgets recorded console lines, errors and events. */
  clearLogs(): void {
    const log = this.world.log;
    log.console.splice(0);
    log.errors.splice(0);
    log.events.splice(0);
  }

  // --- the server ----------------------------------------------------------------------------------------------

  /** Server-side exports, called like a server JS script would. */
  get exports(): ExportsProxy {
    return this.world.server.test.exports;
  }
  /** A local server event (source ''). */
  emit(name: string, ...args: unknown[]): void {
    this.world.server.test.emit(name, args);
  }
  /** A server → client event (target -1 for everyone). */
  emitNet(name: string, target: number, ...args: unknown[]): void {
    this.world.server.test.emitNet(name, [target, ...args]);
  }
  /** Listens on the server (net-safe); the handler gets the arguments and `source`. */
  on(name: string, handler: (args: unknown[], source: unknown) => void): void {
    const runtime = this.world.server.test;
    runtime.on(name, (...args: unknown[]) => handler(args, runtime.currentSource), true);
  }
  /** A server console line, run with source 0 (`bridge status`, `ensure bridge`, `setr x y`). */
  command(line: string): void {
    this.world.console(line);
  }
  convar(name: string): string | undefined {
    return this.world.convars.get(name)?.value;
  }
  /**
   * The principals a connected player is in, through their own (`identifier.<id>` for each identifier and
   * `player.<id>`) and everything those inherit, sorted: what `add_principal` gave them, by hand or by a resource.
   */
  principalsOf(playerId: number): string[] {
    const player = this.world.players.get(playerId);
    return player ? this.world.aces.parentsOf(this.world.principalsOf(player)) : [];
  }
  /** Whether a connected player has an ACE, as IsPlayerAceAllowed answers it. */
  isPlayerAceAllowed(playerId: number, object: string): boolean {
    return this.world.isPlayerAceAllowed(playerId, object);
  }
  /**
   * Puts `player` in or out of `viewer`'s scope (OneSync culling): in scope, the viewer receives the player's state
   * bag and its updates (`Player(id).state` on the viewer's client).
   */
  setInScope(viewer: SimPlayer, player: SimPlayer, inScope = true): void {
    this.world.setInScope(viewer.id, player.id, inScope);
  }
  /** The server's copy of a state bag, decoded (`global`, `player:3`). */
  stateBag(bag: string): Record<string, unknown> {
    return Object.fromEntries(this.world.server.stateBags.entries(bag).map(([k, v]) => [k, describe(v)]));
  }
  resourceState(name: string): string {
    const instance = this.world.server.resources.get(name);
    if (instance) return instance.state;
    return this.world.defs.has(name) ? 'stopped' : 'missing';
  }
  /**
   * An HTTP request to the server's port, as `curl http://server:30120/<resource>/<path>` would send it: the
   * resource's SetHttpHandler handler gets it on the server's next frame. Settles when the handler sends its answer
   * (drive time meanwhile: `sim.resolve(sim.http(…))` on a virtual clock).
   */
  http(request: SimHttpRequest): Promise<SimHttpResponse> {
    return serveHttp(this.world.server, this.world.http, request);
  }
  /** A file a resource wrote with SaveResourceFile. */
  savedFile(resource: string, file: string): string | undefined {
    return this.world.savedFiles.get(`${resource}/${file}`);
  }

  // --- resources -----------------------------------------------------------------------------------------------

  addResource(dir: string, name?: string): string {
    const full = path.resolve(dir);
    const resourceName = name ?? path.basename(full);
    this.world.defs.set(resourceName, { name: resourceName, dir: full });
    return resourceName;
  }
  async startResource(name: string): Promise<boolean> {
    await this.world.lua.reserve(this.world.clients.size + 2);
    return this.asConsole(() => startResource(this.world, this.world.server, name));
  }
  async stopResource(name: string): Promise<boolean> {
    return this.asConsole(() => stopResource(this.world, this.world.server, name));
  }
  async restartResource(name: string): Promise<boolean> {
    await this.world.lua.reserve(this.world.clients.size + 2);
    return this.asConsole(() => {
      stopResource(this.world, this.world.server, name);
      return startResource(this.world, this.world.server, name);
    });
  }
  /** The test controls the server as its console does (`start`, `stop`, `restart` typed there). */
  private asConsole<T>(work: () => T): T {
    return this.world.asPrincipals(['system.console'], work);
  }

  // --- players -------------------------------------------------------------------------------------------------

  /** Connects a player: playerConnecting (deferrals honoured), playerJoining, then its client starts resources. */
  async join(options: JoinOptions = {}): Promise<SimPlayer> {
    const record = await connectPlayer(this.world, options);
    const client = this.world.clients.get(record.id);
    if (!client) throw new Error('sim: the client did not start');
    const player = new SimPlayer(this.world, record, client);
    this.playersById.set(record.id, player);
    return player;
  }
  get players(): SimPlayer[] {
    return [...this.playersById.values()].filter((p) => p.connected);
  }
  player(id: number): SimPlayer | undefined {
    const p = this.playersById.get(id);
    return p?.connected ? p : undefined;
  }

  // --- time ----------------------------------------------------------------------------------------------------

  /** The simulator's clock (ms): the machine's monotonic clock, which frames, timers and GetGameTimer follow. */
  now(): number {
    return this.world.clock.now();
  }
  /** The server machine's wall clock (epoch ms): what scripts read from `Date` and Lua's `os.time`. */
  wallNow(): number {
    return this.world.clock.wallNow();
  }
  /**
   * Moves the server machine's wall clock by `ms` (negative: back), as an admin or NTP does: scripts' `Date` and
   * `os.time` jump; frames, timers, `performance.now` and `GetGameTimer` run on undisturbed. Clients are other
   * machines: theirs does not move. (vi.setSystemTime would move the simulator's monotonic clock too.)
   */
  jumpWallClock(ms: number): void {
    this.world.clock.jumpWallClock(ms);
  }
  /** Lets `ms` of game time pass (virtual clock: instantly; fake timers: through them; else real waiting). */
  advance(ms: number): Promise<void> {
    return this.world.driver.advance(ms);
  }
  /** Lets `n` server frames pass. */
  tick(n = 1): Promise<void> {
    return this.world.driver.advance(n * this.world.options.serverFrameMs);
  }
  /** Waits until no side has queued events or tasks left (net events delivered, replication applied). */
  settle(timeoutMs = 5000): Promise<void> {
    return this.world.driver.until(
      () => this.world.hosts().every((h) => h.pendingCount === 0),
      timeoutMs,
      'queued events',
    );
  }
  /** Advances frame by frame until `promise` settles (an async export, a Lua export that waits); returns its value. */
  async resolve<T>(promise: Promise<T> | T, timeoutMs = 5000): Promise<T> {
    let settled = false;
    const watched = Promise.resolve(promise).finally(() => {
      settled = true;
    });
    watched.catch(() => {});
    await this.world.driver.until(() => settled, timeoutMs, 'a promise to settle');
    return watched;
  }

  /** Advances until `predicate()` holds (frame by frame). */
  until(predicate: () => boolean, timeoutMs = 5000, what = 'a condition'): Promise<void> {
    return this.world.driver.until(predicate, timeoutMs, what);
  }

  // --- lifecycle -----------------------------------------------------------------------------------------------

  /** Players are dropped ('Server shutting down', code 7), then resources stop in reverse order. */
  private shutdown(): void {
    const world = this.world;
    for (const player of world.players.joined()) {
      dropPlayer(world, player, 'Server shutting down', '__cfx_internal:server', 7);
    }
    this.playersById.clear();
    this.asConsole(() => {
      for (const name of [...world.startOrder].reverse()) stopResource(world, world.server, name);
    });
    world.server.destroy();
    // An orderly exit closes the KVP database: NoSync writes are kept.
    world.kvp.flush();
  }

  /**
   * The server process dies without warning (a crash, `kill -9`, a power cut): no playerDropped, no
   * onResourceStop or on<Side>ResourceStop, timers and runtimes vanish, clients lose the connection, and KVP keeps
   * only what had reached its log (NoSync writes since the last sync are lost). Nothing runs until `restart()`
   * starts a new server process on the same KVP.
   */
  async kill(): Promise<void> {
    if (this.stopped) throw new Error('sim: stopped');
    if (this.killed) return;
    this.killed = true;
    this.world.driver.stop();
    this.world.killServer();
    this.playersById.clear();
  }

  /** A new server process on the same KVP directory; previous SimPlayer objects are disconnected. */
  async restart(): Promise<void> {
    if (this.stopped) throw new Error('sim: stopped');
    this.world.driver.stop();
    if (!this.killed) this.shutdown();
    this.killed = false;
    this.world.resetServer();
    await this.boot();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.world.driver.stop();
    if (!this.killed) this.shutdown();
  }
}

export async function createSim(options: SimOptions): Promise<Sim> {
  const sim = new Sim(options);
  await sim.boot();
  return sim;
}
