// One side of the game: the server, or one player's client. Routes events to subscribed resources (synchronously
// for local events, on the next tick for queued ones), resolves function references to their runtime, and runs
// frames (queued events first, then every runtime's timers and threads). fivem-runtime.md §0, §1.2, §1.3.
import type { LuaPool } from '../lua/lua-api.js';
import type { AceStore } from '../server/aces.js';
import type { ConvarStore } from '../server/convars.js';
import type { HttpHandlers } from '../server/http-handlers.js';
import { type KvpFinds, KvpStore } from '../server/kvp.js';
import type { PlayerRecord, PlayerRegistry } from '../server/players.js';
import { ClientData } from './client-data.js';
import { CommandRegistry } from './commands.js';
import type { Driver } from './driver.js';
import type { HostWork } from './host-work.js';
import type { ScriptErrorKind, Side, SimLog } from './log.js';
import { type ResourceDef, ResourceInstance, type Runtime } from './resource.js';
import { parseRef } from './runtime.js';
import { StateBagStore } from './statebags.js';

/**
 * The world (world.ts) as its hosts, their runtimes, natives and the console see it: everything below the world
 * reaches it through this, so nothing there depends on the world's own module.
 */
export interface HostWorld {
  readonly log: SimLog;
  readonly driver: Driver;
  readonly clock: Driver;
  readonly hostWork: HostWork;
  readonly startedAt: number;
  readonly defs: Map<string, ResourceDef>;
  readonly lua: LuaPool;
  readonly server: Host;
  readonly clients: Map<number, Host>;
  readonly players: PlayerRegistry;
  readonly convars: ConvarStore;
  readonly aces: AceStore;
  readonly kvp: KvpStore;
  readonly kvpFinds: KvpFinds;
  readonly http: HttpHandlers;
  /** The server scripts' `fetch`: the server machine's network (undefined: the host's). */
  readonly fetch: typeof fetch | undefined;
  /** Server start order, which is also the order clients start resources in. */
  startOrder: string[];
  /** SaveResourceFile writes here (`<resource>/<path>`), never to the resource folders. */
  readonly savedFiles: Map<string, string>;
  /** Drops a player (reason, resource, clientDropReason); set by the connection code. */
  readonly dropPlayer: (player: PlayerRecord, reason: string, resource: string, code: number) => void;
  executeCommand(resource: string, line: string): void;
  isAllowedNow(object: string): boolean;
  clientCommand(client: Host, line: string): void;
  player(arg: unknown): PlayerRecord | undefined;
  playerIdsAsStrings(): string[];
  identifiersOf(arg: unknown): string[];
  tokensOf(arg: unknown): string[];
  isPlayerAceAllowed(arg: unknown, object: string): boolean;
  sendToServer(playerId: number, name: string, payload: Uint8Array, sender: string | null): void;
  sendToClients(target: string, name: string, payload: Uint8Array, sender: string | null): void;
  stateBagGet(host: Host, bag: string, key: string): Uint8Array | undefined;
  stateBagSet(host: Host, bag: string, key: string, value: Uint8Array, replicated: boolean): void;
  recordNuiMessage(host: Host, resource: string, data: string): void;
}

/** The test's own JS runtime on a side (js/host-runtime.ts), as the simulator's API and the world drive it. */
export interface TestRuntime extends Runtime {
  // biome-ignore lint/suspicious/noExplicitAny: exports and handlers take and give any script values.
  readonly exports: Record<string, any>;
  currentSource: unknown;
  pack(value: unknown): Uint8Array;
  packKeepingRefs(value: unknown): { bytes: Uint8Array; refs: number[] };
  releaseUnheld(refs: readonly number[]): void;
  readonly referenceCount: number;
  emit(name: string, args: unknown[]): void;
  emitNet(name: unknown, rest: unknown[]): void;
  // biome-ignore lint/suspicious/noExplicitAny: exports and handlers take and give any script values.
  on(name: string, fn: (...args: any[]) => any, netSafe?: boolean): void;
}

/** How an event travels: `local` unless it crossed the network, who sent it and, for server→client, the target. */
interface EventRoute {
  kind?: 'local' | 'net';
  sender?: string | null;
  target?: number | null;
}

interface RoutedEvent {
  readonly name: string;
  readonly payload: Uint8Array;
  readonly source: string;
  readonly kind: 'local' | 'net';
  readonly sender: string | null;
  readonly target: number | null;
}

function routedEvent(name: string, payload: Uint8Array, source: string, route: EventRoute): RoutedEvent {
  return {
    name,
    payload,
    source,
    kind: route.kind ?? 'local',
    sender: route.sender ?? null,
    target: route.target ?? null,
  };
}

type QueueItem = { event: RoutedEvent } | { task: () => void };

export class Host {
  readonly resources = new Map<string, ResourceInstance>();
  /** Resources in start order (the order events reach them). */
  private readonly subscribers = new Map<string, ResourceInstance[]>();
  private readonly runtimes = new Map<number, Runtime>();
  private queue: QueueItem[] = [];
  private readonly active: Runtime[] = [];
  private readonly cancelStack: { canceled: boolean }[] = [];
  private lastCanceled = false;
  /** Time of the last frame this host ran. */
  lastTick: number;
  private previousTick: number;
  private ticking = false;
  /** When this host next needs a frame (kept by pokes and recomputed after each frame). */
  wakeAt = Number.POSITIVE_INFINITY;
  alive = true;
  readonly commands: CommandRegistry;
  readonly stateBags: StateBagStore;
  /** The test's own runtime on this side (hidden resource `sim`). */
  readonly test: TestRuntime;
  /** What the player sees (clients only). */
  readonly client: ClientData | null;
  /** A client's own KVP store (the server's is the world's). */
  readonly clientKvp: KvpStore | null;

  constructor(
    readonly world: HostWorld,
    readonly side: Side,
    /** The player whose client this is; null for the server. */
    readonly playerId: number | null,
    readonly frameMs: number,
    /** Makes the test's own runtime on this side (the world passes js/host-runtime.ts's). */
    testRuntime: (host: Host, resource: ResourceInstance) => TestRuntime,
  ) {
    this.lastTick = world.clock.now();
    this.previousTick = this.lastTick;
    this.commands = new CommandRegistry(this);
    this.stateBags = new StateBagStore(this);
    this.client = side === 'client' ? new ClientData() : null;
    this.clientKvp = side === 'client' ? new KvpStore(null) : null;
    const simResource = new ResourceInstance({ name: 'sim', dir: '' }, true);
    simResource.state = 'started';
    this.test = testRuntime(this, simResource);
    simResource.runtimes = [this.test];
    this.addRuntime(this.test);
  }

  get label(): string {
    return this.side === 'server' ? 'server' : `client ${this.playerId}`;
  }

  /** An error of `resource`'s scripts on this side, printed and kept in the log. */
  scriptError(resource: string, kind: ScriptErrorKind, text: string): void {
    this.world.log.error(this.side, this.playerId, resource, kind, text);
  }

  /** FXServer's line for a script file that does not compile (`parse`) or throws while it first runs (`load`). */
  scriptLoadError(resource: string, file: string, kind: 'parse' | 'load', reason: string): void {
    const doing = kind === 'parse' ? 'parsing' : 'loading';
    this.scriptError(resource, kind, `Error ${doing} script ${file} in resource ${resource}: ${reason}`);
  }

  // --- resources and runtimes --------------------------------------------------------------------------------

  addRuntime(runtime: Runtime): void {
    this.runtimes.set(runtime.instanceId, runtime);
  }

  removeRuntime(runtime: Runtime): void {
    this.runtimes.delete(runtime.instanceId);
  }

  /** RegisterResourceAsEventHandler: the whole resource now receives `name`. */
  subscribe(resource: ResourceInstance, name: string): void {
    if (resource.subscriptions.has(name)) return;
    resource.subscriptions.add(name);
    const list = this.subscribers.get(name);
    if (list) list.push(resource);
    else this.subscribers.set(name, [resource]);
  }

  unsubscribeAll(resource: ResourceInstance): void {
    for (const name of resource.subscriptions) {
      const list = this.subscribers.get(name);
      if (!list) continue;
      const i = list.indexOf(resource);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.subscribers.delete(name);
    }
    resource.subscriptions.clear();
  }

  /** Runs `fn` as `runtime` (so GetInvokingResource sees who called). */
  enter<T>(runtime: Runtime, fn: () => T): T {
    this.active.push(runtime);
    try {
      return fn();
    } finally {
      this.active.pop();
    }
  }

  /** Control passes into `runtime`'s code: `enter`, with the host-work meter switched to the runtime's side. */
  private into<T>(runtime: Runtime, fn: () => T): T {
    const meter = this.world.hostWork;
    if (!meter.enabled) return this.enter(runtime, fn);
    return meter.run(meter.sideOf(runtime, this.side), () => this.enter(runtime, fn));
  }

  /** Runs `fn` as `runtime` unless it already is the running one (a JS continuation after an await is not). */
  asRuntime<T>(runtime: Runtime, fn: () => T): T {
    return this.active[this.active.length - 1] === runtime ? fn() : this.enter(runtime, fn);
  }

  /** The resource whose runtime called into `runtime`'s current call, or null. */
  invokingResource(runtime: Runtime): string | null {
    for (let i = this.active.length - 1; i > 0; i--) {
      if (this.active[i] === runtime) return this.active[i - 1]?.resource.name ?? null;
    }
    return null;
  }

  // --- events --------------------------------------------------------------------------------------------------

  /** A local event: every subscribed resource's runtimes run it before this returns. */
  triggerEvent(name: string, payload: Uint8Array, source: string, route: EventRoute = {}): void {
    if (!this.alive) return;
    this.dispatch(routedEvent(name, payload, source, route));
  }

  private dispatch(event: RoutedEvent): void {
    const { name, payload, source } = event;
    this.world.log.event(
      {
        side: this.side,
        player: this.playerId,
        kind: event.kind,
        name,
        source,
        sender: event.sender,
        target: event.target,
      },
      payload,
    );
    const direct = this.subscribers.get(name);
    const wildcard = this.subscribers.get('*');
    const targets = wildcard ? [...(direct ?? []), ...wildcard.filter((r) => !direct?.includes(r))] : direct;
    const frame = { canceled: false };
    this.cancelStack.push(frame);
    try {
      if (targets) {
        for (const resource of [...targets]) {
          if (!resource.receivesEvents) continue;
          for (const runtime of [...resource.runtimes]) {
            if (runtime.alive) this.into(runtime, () => runtime.dispatchEvent(name, payload, source));
          }
        }
      }
    } finally {
      this.cancelStack.pop();
      this.lastCanceled = frame.canceled;
    }
  }

  /** Queued (net and built-in) events: dispatched in order at the start of this host's next frame. */
  queueEvent(name: string, payload: Uint8Array, source: string, route: EventRoute = {}): void {
    if (!this.alive) return;
    this.queue.push({ event: routedEvent(name, payload, source, route) });
    this.poke(this.world.clock.now());
  }

  /** Work for this host's next frame, in order with queued events (resource starts on clients, replication). */
  queueTask(task: () => void): void {
    if (!this.alive) return;
    this.queue.push({ task });
    this.poke(this.world.clock.now());
  }

  get pendingCount(): number {
    return this.queue.length;
  }

  cancelEvent(): void {
    const top = this.cancelStack[this.cancelStack.length - 1];
    if (top) top.canceled = true;
  }

  wasEventCanceled(): boolean {
    return this.lastCanceled;
  }

  // --- function references -------------------------------------------------------------------------------------

  private runtimeForRef(ref: string): { runtime: Runtime; index: number } {
    const parsed = parseRef(ref);
    const runtime = parsed ? this.runtimes.get(parsed.instanceId) : undefined;
    if (!parsed || !runtime?.alive || runtime.resource.name !== parsed.resource) {
      const owner = parsed?.resource ?? 'unknown';
      throw new Error(`Error in nested ref call: reference ${ref} wasn't valid (did ${owner} restart recently?)`);
    }
    return { runtime, index: parsed.index };
  }

  /** Calls a function reference synchronously; the result is the callee's packed return list. */
  invokeRef(ref: string, args: Uint8Array): Uint8Array {
    const { runtime, index } = this.runtimeForRef(ref);
    return this.into(runtime, () => runtime.callRef(index, args));
  }

  duplicateRef(ref: string): void {
    const parsed = parseRef(ref);
    const runtime = parsed && this.runtimes.get(parsed.instanceId);
    if (runtime?.alive && parsed) runtime.duplicateRef(parsed.index);
  }

  deleteRef(ref: string): void {
    const parsed = parseRef(ref);
    const runtime = parsed && this.runtimes.get(parsed.instanceId);
    if (runtime?.alive && parsed) runtime.deleteRef(parsed.index);
  }

  // --- frames --------------------------------------------------------------------------------------------------

  /**
   * The game time a timer created now counts from: the previous frame's time (timer.js sets lastRun to the time of
   * the last tick). A client skips frames it has no work for; those count as if they had run.
   */
  gameTime(): number {
    const [last, at] = this.ticking ? [this.previousTick, this.lastTick] : [this.lastTick, this.world.clock.now()];
    const skipped = Math.floor((at - last) / this.frameMs) - 1;
    return skipped > 0 ? last + skipped * this.frameMs : last;
  }

  /** Asks for a frame at or after `time`. */
  poke(time: number): void {
    const at = Math.max(time, this.lastTick + this.frameMs);
    if (at < this.wakeAt) {
      this.wakeAt = at;
      this.world.driver.noteWake(this);
    }
  }

  tick(now: number): void {
    if (!this.alive) return;
    this.previousTick = this.lastTick;
    this.lastTick = now;
    this.ticking = true;
    try {
      const items = this.queue;
      this.queue = [];
      for (const item of items) {
        if (!this.alive) return;
        if ('task' in item) item.task();
        else this.dispatch(item.event);
      }
      for (const runtime of [...this.runtimes.values()]) {
        if (runtime.alive) this.into(runtime, () => runtime.tick(now));
      }
    } finally {
      this.ticking = false;
      this.wakeAt = this.computeWake();
      this.world.driver.noteWake(this);
    }
  }

  private computeWake(): number {
    if (this.queue.length > 0) return this.lastTick + this.frameMs;
    let wake = Number.POSITIVE_INFINITY;
    for (const runtime of this.runtimes.values()) {
      if (runtime.alive) wake = Math.min(wake, runtime.nextWake());
    }
    return Number.isFinite(wake) ? Math.max(wake, this.lastTick + this.frameMs) : wake;
  }

  /** Destroys every runtime without lifecycle events (a client disconnecting, a server shutting down). */
  destroy(): void {
    this.alive = false;
    this.world.driver.noteWake(this);
    for (const runtime of this.runtimes.values()) runtime.destroy();
    this.runtimes.clear();
    this.queue = [];
    for (const resource of this.resources.values()) {
      resource.state = 'stopped';
      resource.runtimes = [];
    }
  }
}
