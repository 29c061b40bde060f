// What every JS runtime does, whatever realm it runs in (a resource's vm context, or the test's host-realm
// runtime): the listener lists and net-safe set, `source` during dispatch, function references, and the exports
// proxy. Behaviour follows citizen/scripting/v8/main.js as described in fivem-runtime.md §1.1, §2 and §9.
import { PACKED_NIL, pack, unpack } from '../codec/msgpack.js';
import type { Realm } from '../codec/realm.js';
import type { Host } from '../host/host.js';
import type { ConsoleLine, ScriptErrorKind } from '../host/log.js';
import type { ResourceInstance, Runtime } from '../host/resource.js';
import { canonicalRef, newInstanceId, RefTable } from '../host/runtime.js';
import { ts } from '../natives/args.js';
import { errorMessage, errorText, format } from './format.js';

// biome-ignore lint/suspicious/noExplicitAny: script callbacks take and return anything
export type Fn = (...args: any[]) => any;

const exportEventName = (resource: string, name: string) => `__cfx_export_${resource}_${name}`;

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (
    v !== null &&
    (typeof v === 'object' || typeof v === 'function') &&
    typeof (v as { then?: unknown }).then === 'function'
  );
}

export abstract class JsCore implements Runtime {
  abstract readonly kind: 'js' | 'host';
  readonly instanceId = newInstanceId();
  alive = true;
  protected readonly refs = new RefTable<Fn>();
  protected readonly listeners = new Map<string, Fn[]>();
  protected readonly rawListeners = new Map<string, Fn[]>();
  protected readonly netSafe = new Set(['playerDropped', 'playerConnecting']);
  private readonly exportsCache = new Map<string, Map<string, Fn>>();
  private maxListeners = 10;
  // A reference this runtime unpacked is released when the callable is collected (FXServer's delete-ref).
  private readonly released = new FinalizationRegistry<string>((ref) => this.host.deleteRef(ref));

  constructor(
    readonly host: Host,
    readonly resource: ResourceInstance,
    readonly realm: Realm,
  ) {}

  get name(): string {
    return this.resource.name;
  }

  // --- output --------------------------------------------------------------------------------------------------

  print(level: ConsoleLine['level'], args: readonly unknown[]): void {
    // A server or client that is gone prints nothing, even from a continuation the test process still runs.
    if (!this.host.alive) return;
    this.host.world.log.print(this.host.side, this.host.playerId, this.name, level, format(args));
  }

  printError(kind: ScriptErrorKind, where: string, e: unknown): void {
    if (!this.alive) return;
    const text =
      kind === 'unhandled promise failure'
        ? `Unhandled promise failure: ${errorText(e)}`
        : `SCRIPT ERROR in ${where}: ${errorText(e)}`;
    this.host.scriptError(this.name, kind, text);
  }

  /** An error thrown into script code is of the script's realm (`e instanceof Error` holds there). */
  protected error(message: string): Error {
    return new this.realm.Error(message);
  }

  // --- function references -------------------------------------------------------------------------------------

  readonly makeRef = (fn: Fn): string => canonicalRef(this.name, this.instanceId, this.refs.add(fn));

  private readonly unpackRef = (ref: string): Fn => {
    this.host.duplicateRef(ref);
    const callable: Fn = (...args) => this.invokeRef(ref, args);
    this.released.register(callable, ref);
    return callable;
  };

  pack(value: unknown): Uint8Array {
    return pack(value, this.makeRef);
  }

  /** Packs `value` and tells which references that made, for an owner that ends their life (releaseUnheld). */
  packKeepingRefs(value: unknown): { bytes: Uint8Array; refs: number[] } {
    const refs: number[] = [];
    const bytes = pack(value, (fn: Fn) => {
      const index = this.refs.add(fn);
      refs.push(index);
      return canonicalRef(this.name, this.instanceId, index);
    });
    return { bytes, refs };
  }

  /** Lets go of references no script holds (one a script unpacked goes when it is collected, as before). */
  releaseUnheld(refs: readonly number[]): void {
    for (const index of refs) this.refs.releaseUnheld(index);
  }

  unpack(bytes: Uint8Array): unknown {
    return this.realm.adopt(unpack(bytes, this.unpackRef));
  }

  /** Calling an unpacked reference: a synchronous call into the owning runtime through msgpack. */
  private invokeRef(ref: string, args: unknown[]): unknown {
    const meter = this.host.world.hostWork;
    if (!meter.enabled) return this.callThroughRef(ref, args);
    return meter.run(meter.sideOf(this, this.host.side), () => this.callThroughRef(ref, args));
  }

  private callThroughRef(ref: string, args: unknown[]): unknown {
    const meter = this.host.world.hostWork;
    let result: Uint8Array;
    try {
      const packed = this.pack(args);
      result = meter.run('host', () => this.host.asRuntime(this, () => this.host.invokeRef(ref, packed)));
    } catch (e) {
      throw this.error(errorMessage(e));
    }
    const retvals = this.unpack(result) as unknown;
    if (retvals === null || retvals === undefined) throw this.error('Error in nested ref call.');
    const list = retvals as unknown[];
    const first = list[0] as { __cfx_async_retval?: unknown } | undefined;
    if (first && typeof first === 'object' && typeof first.__cfx_async_retval === 'function') {
      const subscribe = first.__cfx_async_retval as Fn;
      return new this.realm.Promise((resolve, reject) => {
        subscribe((rets: unknown, err: unknown) => {
          if (rets) resolve(unwrapReturns(rets));
          else reject(err);
        });
      });
    }
    return unwrapReturns(list);
  }

  callRef(index: number, argsBytes: Uint8Array): Uint8Array {
    const fn = this.refs.get(index);
    if (!fn) {
      this.print('error', ['Invalid ref call attempt:', index]);
      return this.pack([]);
    }
    try {
      const args = this.unpack(argsBytes);
      const result = fn(...(Array.isArray(args) ? args : []));
      if (isThenable(result)) {
        // An async callee answers with a handle the caller subscribes to; a rejection arrives as its message.
        const asyncRetval = (cb: Fn) => {
          result.then(
            (value) => cb([value], false),
            (e) => cb(false, errorMessage(e)),
          );
        };
        return this.pack([{ __cfx_async_retval: asyncRetval }]);
      }
      return this.pack([result]);
    } catch (e) {
      this.printError('call ref', 'call ref', e);
      return PACKED_NIL;
    }
  }

  /** References this runtime made that are still callable. */
  get referenceCount(): number {
    return this.refs.size;
  }

  duplicateRef(index: number): void {
    this.refs.duplicate(index);
  }

  deleteRef(index: number): void {
    this.refs.release(index);
  }

  // --- events --------------------------------------------------------------------------------------------------

  on(name: string, fn: Fn, netSafe = false): void {
    if (netSafe) this.netSafe.add(name);
    this.host.subscribe(this.resource, name);
    const list = this.listeners.get(name) ?? [];
    list.push(fn);
    this.listeners.set(name, list);
    if (this.maxListeners > 0 && list.length === this.maxListeners + 1) {
      this.print('error', [
        `(node) warning: possible EventEmitter memory leak detected. ${list.length} listeners added. Use emitter.setMaxListeners() to increase limit.`,
      ]);
    }
  }

  off(name: string, fn: Fn): void {
    const list = this.listeners.get(name);
    const i = list ? list.indexOf(fn) : -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  onRaw(name: string, fn: Fn): void {
    const list = this.rawListeners.get(name) ?? [];
    list.push(fn);
    this.rawListeners.set(name, list);
  }

  registerNetEvent(name: string): void {
    this.netSafe.add(name);
  }

  setMaxListeners(n: number): void {
    this.maxListeners = n;
  }

  emit(name: string, args: unknown[]): void {
    const meter = this.host.world.hostWork;
    const payload = meter.run(meter.sideOf(this, this.host.side), () => this.pack(args));
    meter.run('host', () =>
      this.host.asRuntime(this, () => this.host.triggerEvent(name, payload, '', { sender: this.name })),
    );
  }

  /** Server emitNet(name, target, ...) / client emitNet(name, ...). */
  emitNet(name: unknown, rest: unknown[]): void {
    const eventName = ts(name);
    if (eventName === null) throw this.error('Argument at index 0 was null.');
    const world = this.host.world;
    if (this.host.side === 'server') {
      const [target, ...args] = rest;
      const targetText = ts(target);
      if (targetText === null) throw this.error('Argument at index 1 was null.');
      world.sendToClients(targetText, eventName, this.pack(args), this.name);
    } else {
      world.sendToServer(this.host.playerId ?? 0, eventName, this.pack(rest), this.name);
    }
  }

  protected abstract setSource(value: unknown): void;

  dispatchEvent(name: string, payload: Uint8Array, rawSource: string): void {
    if (!this.alive) return;
    this.setSource(rawSource);
    if (rawSource.startsWith('net')) {
      const list = this.listeners.get(name);
      if (list && list.length > 0 && !this.netSafe.has(name)) {
        this.print('error', [`Event ${name} was not safe for net`]);
        this.setSource(null);
        return;
      }
      this.setSource(Number.parseInt(rawSource.slice(4), 10));
    } else if (this.host.side === 'server' && rawSource.startsWith('internal-net')) {
      this.setSource(Number.parseInt(rawSource.slice(13), 10));
    }
    const raw = this.rawListeners.get(name);
    if (raw) {
      for (const fn of [...raw]) {
        try {
          fn(new this.realm.Uint8Array(payload), rawSource);
        } catch (e) {
          this.print('error', ['Unhandled error during running raw event listeners', e]);
        }
      }
    }
    const listeners = [...(this.listeners.get(name) ?? [])];
    let args: unknown = [];
    if (listeners.length > 0) {
      try {
        args = this.unpack(payload) ?? [];
      } catch (e) {
        this.printError('event', `event '${name}'`, e);
        args = null;
      }
    }
    if (listeners.length === 0 || !Array.isArray(args)) {
      this.setSource(null);
      return;
    }
    for (const listener of listeners) {
      try {
        const result = listener(...args);
        if (isThenable(result)) {
          // Not awaited: the next listener runs at once; a rejection is only reported.
          result.then(undefined, (e) => this.printError('unhandled promise failure', 'promise', e));
        }
      } catch (e) {
        this.printError('event', `event '${name}'`, e);
      }
    }
    this.setSource(null);
  }

  // --- exports -------------------------------------------------------------------------------------------------

  /** Looks an export up through its local event, caching what the exporter hands back. */
  private lookupExport(resource: string, name: string): Fn {
    let cache = this.exportsCache.get(resource);
    if (!cache) {
      cache = new Map();
      this.exportsCache.set(resource, cache);
    }
    const cached = cache.get(name);
    if (cached) return cached;
    const store = cache;
    this.emit(exportEventName(resource, name), [
      (exportData: Fn) => {
        store.set(name, exportData);
      },
    ]);
    const found = store.get(name);
    if (!found) throw this.error(`No such export ${name} in resource ${resource}`);
    return found;
  }

  /** Resets this runtime's cache for a stopped resource (on the queued on<Side>ResourceStop). */
  protected resetExports(resource: string): void {
    this.exportsCache.set(resource, new Map());
  }

  createExports(): unknown {
    const core = this;
    const register = (exportName: unknown, fn: unknown) => {
      core.on(exportEventName(core.name, String(exportName)), (setCB: Fn) => setCB(fn));
    };
    return new Proxy(() => {}, {
      get(_target, resourceKey) {
        const resource = String(resourceKey) === 'txAdmin' ? 'monitor' : String(resourceKey);
        return new Proxy(
          {},
          {
            get(_t, exportKey) {
              const exportName = String(exportKey);
              const fn = core.lookupExport(resource, exportName);
              return (...args: unknown[]) => {
                try {
                  return fn(...args);
                } catch {
                  throw core.error(
                    `An error occurred while calling export ${exportName} of resource ${resource} - see above for details`,
                  );
                }
              };
            },
            set() {
              throw core.error('cannot set values on an export resource');
            },
          },
        );
      },
      apply(_target, _self, args: unknown[]) {
        if (args.length !== 2) throw core.error('this needs 2 arguments');
        register(args[0], args[1]);
      },
      set() {
        throw core.error('cannot set values on exports');
      },
    });
  }

  /** The queued stop event resets export caches, as main.js's own listener does. */
  protected listenForResourceStops(): void {
    const side = this.host.side === 'server' ? 'Server' : 'Client';
    this.on(`on${side}ResourceStop`, (resource: string) => this.resetExports(resource));
  }

  // --- lifecycle -----------------------------------------------------------------------------------------------

  tick(_now: number): void {}

  nextWake(): number {
    return Number.POSITIVE_INFINITY;
  }

  destroy(): void {
    this.alive = false;
    this.refs.clear();
    this.listeners.clear();
    this.rawListeners.clear();
  }
}

/** A reference call's result list: nothing → undefined, one value → that value, more → the array. */
function unwrapReturns(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  switch (list.length) {
    case 0:
      return undefined;
    case 1:
      return list[0];
    default:
      return list;
  }
}
