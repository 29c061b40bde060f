// A resource's JS runtime: its own Node `vm` context (one realm per runtime, like one V8 context per ScRT) with the
// globals main.js and timer.js define, the emulated natives, and on the server Node's globals. The client context
// has no Node and no web APIs (fivem-runtime.md §10.3).
import vm from 'node:vm';
import { type Realm, realmOf } from '../codec/realm.js';
import type { Host } from '../host/host.js';
import type { ResourceInstance } from '../host/resource.js';
import { emulatedNatives, knownNatives, type NativeContext, type NativeDef, notEmulated } from '../natives/registry.js';
import { errorMessage, errorText, syntaxErrorText } from './format.js';
import { type Fn, JsCore } from './js-core.js';
import { installNodeGlobals } from './node-globals.js';
import { createStateBagApi } from './statebag-api.js';
import { JsTimers, type TimerStats } from './timers.js';

const stubPrototypes = new Map<string, object>();

/** One shared prototype per side holding a throwing stub for every FiveM native the simulator does not emulate. */
function stubPrototype(side: 'server' | 'client'): object {
  const cached = stubPrototypes.get(side);
  if (cached) return cached;
  const emulated = new Set(emulatedNatives(side).map((d) => d.name));
  const proto: Record<string, unknown> = {};
  for (const name of knownNatives(side)) {
    if (emulated.has(name)) continue;
    proto[name] = () => {
      throw notEmulated(side, name);
    };
  }
  stubPrototypes.set(side, proto);
  return proto;
}

// Unhandled rejections of a script's promises are printed by FXServer and do not stop anything; they must not
// reach the test runner as its own unhandled errors either. Promises are matched to their runtime by realm.
const promiseOwners = new WeakMap<object, JsRuntime>();
let rejectionHookInstalled = false;

function installRejectionHook(): void {
  if (rejectionHookInstalled) return;
  rejectionHookInstalled = true;
  const emit = process.emit;
  process.emit = function patchedEmit(this: NodeJS.Process, event: string | symbol, ...args: unknown[]) {
    if (event === 'unhandledRejection') {
      const [reason, promise] = args;
      const owner =
        promise && typeof promise === 'object' ? promiseOwners.get(Object.getPrototypeOf(promise)) : undefined;
      if (owner) {
        owner.printError('promise', 'promise (unhandled rejection)', reason);
        return true;
      }
    }
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof process.emit;
}

const scriptCache = new Map<string, { code: string; script: vm.Script }>();

/** Scripts are compiled once and run in every context that loads them (2048 clients share one compile). */
function compile(filename: string, code: string): vm.Script {
  const cached = scriptCache.get(filename);
  if (cached && cached.code === code) return cached.script;
  const script = new vm.Script(code, { filename });
  scriptCache.set(filename, { code, script });
  return script;
}

export class JsRuntime extends JsCore {
  readonly kind = 'js' as const;
  private readonly context: vm.Context;
  private readonly sandbox: Record<string, unknown>;
  private readonly timers: JsTimers;
  /** The sockets this server runtime's Node code opened: closed with the runtime (node-globals.ts). */
  private nodeSockets: { close(): void } | undefined;

  constructor(host: Host, resource: ResourceInstance) {
    const sandbox = Object.create(stubPrototype(host.side)) as Record<string, unknown>;
    const context = vm.createContext(sandbox, { name: `${host.label} ${resource.name}` });
    const realm: Realm = realmOf(context);
    super(host, resource, realm);
    this.sandbox = sandbox;
    this.context = context;
    this.timers = new JsTimers(host, realm, {
      timer: (e) => this.printError('timer', 'timer', e),
      ticker: (e) => this.printError('ticker', 'ticker', e),
      animationFrame: (e) => this.printError('timer', 'animationFrame', e),
    });
    installRejectionHook();
    promiseOwners.set(realm.Promise.prototype, this);
    this.installGlobals();
  }

  protected setSource(value: unknown): void {
    this.sandbox.source = value;
  }

  private installGlobals(): void {
    const s = this.sandbox;
    const host = this.host;
    const world = host.world;
    const isServer = host.side === 'server';
    const guard = <A extends unknown[], R>(fn: (...args: A) => R) =>
      ((...args: A) => {
        if (!this.alive) throw this.error(`resource ${this.name} is no longer running`);
        return fn(...args);
      }) as (...args: A) => R;

    if (isServer) {
      this.nodeSockets = installNodeGlobals(s, this.resource.def.dir, {
        onExit: (code) => this.printError('promise', 'process.exit', new Error(`Node.js exiting (exit code ${code})`)),
        adoptPromise: (p) => this.realm.Promise.resolve(p),
        performanceNow: () => world.clock.now() - world.startedAt,
        // Node reads the wall clock once at process start; performance.now counts on from there, monotonic.
        performanceTimeOrigin: () => world.clock.wallNow() - (world.clock.now() - world.startedAt),
        mountedDirs: () => [...world.defs.values()].map((def) => def.dir),
        fetch: world.fetch,
      });
    }
    s.global = vm.runInContext('globalThis', this.context);
    // The context's own Date is its machine's wall clock, on the simulator's clock (vitest's fake timers only replace
    // the host's Date); sim.jumpWallClock moves the server machine's.
    const wallNow = isServer ? () => world.clock.wallNow() : () => world.clock.now();
    s.Date = new Proxy(this.realm.Date, {
      construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [wallNow()], newTarget),
      apply: (target) => new target(wallNow()).toString(),
      get: (target, key, receiver) => (key === 'now' ? wallNow : Reflect.get(target, key, receiver)),
    });

    const addEventListener = guard((name: unknown, fn: Fn, netSafe?: unknown) =>
      this.on(String(name), fn, Boolean(netSafe)),
    );
    s.Citizen = {
      trace: (...args: unknown[]) => this.print('log', [args.join('')]),
      makeRefFunction: guard((fn: Fn) => this.makeRef(fn)),
      getTickCount: () => world.clock.now() - world.startedAt,
      invokeNative: (hash: unknown) => {
        throw this.error(`Citizen.invokeNative(${String(hash)}) is not emulated by the simulator`);
      },
    };
    s.addEventListener = addEventListener;
    s.on = addEventListener;
    s.AddEventHandler = addEventListener;
    s.addNetEventListener = guard((name: unknown, fn: Fn) => this.on(String(name), fn, true));
    s.onNet = s.addNetEventListener;
    s.RegisterNetEvent = (name: unknown) => void this.registerNetEvent(String(name));
    s.RegisterServerEvent = s.RegisterNetEvent;
    s.removeEventListener = (name: unknown, fn: Fn) => this.off(String(name), fn);
    s.RemoveEventHandler = s.removeEventListener;
    s.addRawEventListener = guard((name: unknown, fn: Fn) => this.onRaw(String(name), fn));
    s.addRawEventHandler = s.addRawEventListener;
    s.setMaxEventListeners = (n: number) => this.setMaxListeners(n);
    s.emit = guard((name: unknown, ...args: unknown[]) => {
      this.emit(String(name), args);
    });
    s.TriggerEvent = s.emit;
    s.emitNet = guard((name: unknown, ...rest: unknown[]) => this.emitNet(name, rest));
    if (isServer) {
      s.TriggerClientEvent = s.emitNet;
      s.TriggerLatentClientEvent = guard((name: unknown, target: unknown, _bps: unknown, ...args: unknown[]) =>
        this.emitNet(name, [target, ...args]),
      );
    } else {
      s.TriggerServerEvent = s.emitNet;
      s.TriggerLatentServerEvent = guard((name: unknown, _bps: unknown, ...args: unknown[]) =>
        this.emitNet(name, args),
      );
    }
    s.exports = this.createExports();
    s.msgpack_pack = (value: unknown) => new this.realm.Uint8Array(this.pack(value));
    s.msgpack_unpack = (bytes: Uint8Array) => this.unpack(bytes);

    const timers = this.timers;
    for (const [name, value] of Object.entries({
      setTimeout: timers.setTimeout,
      clearTimeout: timers.clearTimer,
      setInterval: timers.setInterval,
      clearInterval: timers.clearTimer,
      setImmediate: timers.setImmediate,
      clearImmediate: timers.clearTimer,
      setTick: timers.setTick,
      clearTick: timers.clearTick,
      requestAnimationFrame: timers.requestAnimationFrame,
    })) {
      Object.defineProperty(s, name, { value, writable: false, enumerable: true, configurable: false });
    }

    s.console = this.createConsole();
    Object.assign(s, createStateBagApi(this));

    const ctx: NativeContext = { host, runtime: this, resource: this.name };
    for (const def of emulatedNatives(host.side)) s[def.name] = this.nativeFunction(def, ctx);
    if (isServer) {
      const native = <T>(fn: () => T) => world.hostWork.run('host', fn);
      s.getPlayers = () => native(() => this.realm.adopt(world.playerIdsAsStrings()));
      s.getPlayerIdentifiers = (player: unknown) => native(() => this.realm.adopt(world.identifiersOf(player)));
      s.getPlayerTokens = (player: unknown) => native(() => this.realm.adopt(world.tokensOf(player)));
    } else {
      s.SendNUIMessage = (data: unknown) => world.recordNuiMessage(host, this.name, JSON.stringify(data));
    }

    // main.js's own listeners: manifest exports register on this resource's start, export caches reset on stops.
    const side = isServer ? 'Server' : 'Client';
    const exportKey = isServer ? 'server_export' : 'export';
    this.on(`on${side}ResourceStart`, (resource: string) => {
      if (resource !== this.name) return;
      for (const exportName of this.resource.metadata(exportKey)) {
        this.on(`__cfx_export_${this.name}_${exportName}`, (setCB: Fn) => {
          const value = this.sandbox[exportName];
          if (value) setCB(value);
        });
      }
    });
    this.listenForResourceStops();
  }

  private nativeFunction(def: NativeDef, ctx: NativeContext): Fn {
    const world = this.host.world;
    return (...args: unknown[]) => {
      if (!this.alive) throw this.error(`resource ${this.name} is no longer running`);
      // Callbacks handed to natives become references, as the generated wrappers do (_mfr).
      const converted = args.map((a) => (typeof a === 'function' ? this.makeRef(a as Fn) : a));
      let result: unknown;
      try {
        // FXServer runs natives in C++: the host's work, not the script's.
        result = world.hostWork.run('host', () => def.impl(ctx, ...converted));
      } catch (e) {
        throw this.error(errorMessage(e));
      }
      return this.realm.adopt(result);
    };
  }

  private createConsole(): Record<string, Fn> {
    const counters = new Map<string, number>();
    const times = new Map<string, number>();
    const clock = this.host.world.clock;
    const log = (...args: unknown[]) => this.print('log', args);
    return {
      log,
      debug: (...args: unknown[]) => this.print('debug', ['Debug:', ...args]),
      info: (...args: unknown[]) => this.print('info', ['Info:', ...args]),
      warn: (...args: unknown[]) => this.print('warn', ['Warning:', ...args]),
      error: (...args: unknown[]) => this.print('error', ['Error:', ...args]),
      trace: (...args: unknown[]) =>
        this.print('log', ['Trace:', ...args, new Error().stack?.split('\n').slice(2).join('\n')]),
      dir: (item: unknown) => this.print('log', ['Dir:', item]),
      assert: (condition: unknown, ...args: unknown[]) => {
        if (!condition) throw new this.realm.Error(args.length ? args.map(String).join(' ') : 'Assertion failed');
      },
      count: (label = 'default') => {
        const n = (counters.get(label) ?? 0) + 1;
        counters.set(label, n);
        log(`${label}: ${n}`);
      },
      countReset: (label = 'default') => {
        counters.delete(label);
      },
      time: (label = 'default') => {
        times.set(label, clock.now());
      },
      timeEnd: (label = 'default') => {
        const start = times.get(label);
        if (start === undefined) return this.print('warn', [`No such label ${label} for console.timeEnd()`]);
        times.delete(label);
        log(`${label}: ${clock.now() - start} ms`);
      },
    };
  }

  /** Loads one script file into this context; errors are printed as FXServer prints them and loading goes on. */
  loadScript(file: string, code: string): void {
    const filename = `@${this.name}/${file}`;
    let script: vm.Script;
    try {
      script = compile(filename, code);
    } catch (e) {
      this.host.scriptLoadError(this.name, file, 'parse', syntaxErrorText(e));
      return;
    }
    try {
      this.host.enter(this, () => script.runInContext(this.context, { displayErrors: false }));
    } catch (e) {
      this.host.scriptLoadError(this.name, file, 'load', errorText(e));
    }
  }

  override tick(now: number): void {
    this.timers.tick(now);
  }

  override nextWake(): number {
    return this.timers.nextWake();
  }

  /** What its timer.js did since the runtime started (see TimerStats). */
  timerStats(): TimerStats {
    return this.timers.stats();
  }

  override destroy(): void {
    super.destroy();
    this.timers.clear();
    this.nodeSockets?.close();
  }
}
