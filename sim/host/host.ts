// One side of the game: the server, or one player's client. Routes events to subscribed resources (synchronously
// for local events, on the next tick for queued ones), resolves function references to their runtime, and runs
// frames (queued events first, then every runtime's timers and threads). fivem-runtime.md §0, §1.2, §1.3.
import { HostRuntime } from '../js/host-runtime.js';
import { KvpStore } from '../server/kvp.js';
import { ClientData } from './client-data.js';
import { CommandRegistry } from './commands.js';
import type { ScriptErrorKind, Side } from './log.js';
import { ResourceInstance } from './resource.js';
import { parseRef, type Runtime } from './runtime.js';
import { StateBagStore } from './statebags.js';
import type { World } from './world.js';

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
  readonly test: HostRuntime;
  /** What the player sees (clients only). */
  readonly client: ClientData | null;
  /** A client's own KVP store (the server's is the world's). */
  readonly clientKvp: KvpStore | null;

  constructor(
    readonly world: World,
    readonly side: Side,
    /** The player whose client this is; null for the server. */
    readonly playerId: number | null,
    readonly frameMs: number,
  ) {
    this.lastTick = world.clock.now();
    this.previousTick = this.lastTick;
    this.commands = new CommandRegistry(this);
    this.stateBags = new StateBagStore(this);
    this.client = side === 'client' ? new ClientData() : null;
    this.clientKvp = side === 'client' ? new KvpStore(null) : null;
    const simResource = new ResourceInstance({ name: 'sim', dir: '' }, true);
    simResource.state = 'started';
    this.test = new HostRuntime(this, simResource);
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
