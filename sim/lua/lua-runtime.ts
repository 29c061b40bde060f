// A resource's Lua runtime: a real Lua 5.4 state (wasmoon's wasm build) running prelude.lua, with the host reached
// through C functions. Every value in or out crosses msgpack (lua-codec.ts). Calls from the host run on a
// dedicated thread per nesting depth, so a nested call (an export calling back) never shares a Lua stack.
import fs from 'node:fs';
import { PACKED_NIL } from '../codec/msgpack.js';
import type { Host } from '../host/host.js';
import type { ResourceInstance, Runtime } from '../host/resource.js';
import { canonicalRef, newInstanceId, RefTable } from '../host/runtime.js';
import { ts } from '../natives/args.js';
import type { NativeContext } from '../natives/registry.js';
import { hostFunctions, type LuaHostSide, runtimesById } from './host-functions.js';
import { type LuaModule, LuaRaise, LuaType } from './lua-api.js';
import { LuaCodec } from './lua-codec.js';

const preludeSource = fs.readFileSync(new URL('./prelude.lua', import.meta.url));
/** prelude.lua compiled once (string.dump keeps line info); every later state loads the bytecode. */
let preludeBytecode: Uint8Array | null = null;

/** Compiles prelude.lua onto the stack, from cached bytecode when there is some. */
function loadPrelude(lua: LuaModule, L: number): void {
  const name = '@citizen:/scripting/lua/scheduler.lua';
  if (preludeBytecode) {
    if (lua.load(L, preludeBytecode, name) === 0) return;
    lua.pop(L);
  }
  if (lua.load(L, preludeSource, name) !== 0) throw new Error(`prelude.lua: ${lua.toString(L, -1)}`);
  // string.dump(chunk): the bytecode of what was just compiled.
  lua.pushGlobals(L);
  lua.rawGetField(L, -1, 'string');
  lua.rawGetField(L, -1, 'dump');
  lua.pushValue(L, -4);
  if (lua.pcall(L, 1, 1) === 0) preludeBytecode = lua.toBytes(L, -1);
  lua.pop(L, 3);
}

interface Entries {
  event: number;
  callRef: number;
  tick: number;
  run: number;
  funcrefMt: number;
  vectorMts: number[];
}

export class LuaRuntime implements Runtime, LuaHostSide {
  readonly kind = 'lua' as const;
  readonly instanceId = newInstanceId();
  alive = true;
  readonly codec: LuaCodec;
  readonly nativeContext: NativeContext;
  private readonly L: number;
  private readonly entries: Entries;
  private readonly refs = new RefTable<number>();
  private pendingUnrefs: number[] = [];
  private readonly threads: number[] = [];
  private depth = 0;
  private wakeAt = Number.POSITIVE_INFINITY;

  constructor(
    readonly host: Host,
    readonly resource: ResourceInstance,
    private readonly lua: LuaModule,
  ) {
    this.nativeContext = { host, runtime: this, resource: resource.name };
    this.codec = new LuaCodec(lua, {
      makeRef: (L, idx) => this.makeRef(L, idx),
      pushFuncRef: (L, ref) => this.pushFuncRef(L, ref),
      pushVector: (L, components, kind) => this.pushVector(L, components, kind),
      vectorKind: (L, idx) => this.vectorKind(L, idx),
    });
    runtimesById.set(this.instanceId, this);
    this.L = lua.newState();
    this.entries = this.boot();
  }

  /** Runs prelude.lua with the `cfx` table and keeps its entry points in the registry. */
  private boot(): Entries {
    const { lua, L } = this;
    const fns = hostFunctions(lua);
    lua.newTable(L, 0, 24);
    lua.pushBoolean(L, this.host.side === 'server');
    lua.rawSetField(L, -2, 'isServer');
    for (const [name, fn] of Object.entries(fns)) {
      if (name === 'native' || name === 'stub') continue;
      lua.pushInteger(L, this.instanceId);
      lua.pushCFunction(L, fn, 1);
      lua.rawSetField(L, -2, name);
    }
    loadPrelude(lua, L);
    lua.insert(L, -2);
    if (lua.pcall(L, 1, 1) !== 0) throw new Error(`prelude.lua: ${lua.toString(L, -1)}`);
    const field = (name: string) => {
      lua.rawGetField(L, -1, name);
      return lua.ref(L);
    };
    const entries: Entries = {
      event: field('event'),
      callRef: field('callRef'),
      tick: field('tick'),
      run: field('run'),
      funcrefMt: field('funcrefMt'),
      vectorMts: [],
    };
    lua.rawGetField(L, -1, 'vectorMts');
    for (let i = 1; i <= 4; i++) {
      lua.rawGetI(L, -1, i);
      entries.vectorMts.push(lua.ref(L));
    }
    lua.setTop(L, 0);
    return entries;
  }

  // --- helpers used by the host functions ----------------------------------------------------------------------

  print(text: string): void {
    this.host.world.log.print(this.host.side, this.host.playerId, this.resource.name, 'log', text);
  }

  gameTimer(): number {
    return this.host.world.clock.now() - this.host.world.startedAt;
  }

  makeRef(L: number, idx: number): string {
    this.lua.ensure(L, 1);
    this.lua.pushValue(L, idx);
    const registryRef = this.lua.ref(L);
    return canonicalRef(this.resource.name, this.instanceId, this.refs.add(registryRef));
  }

  private pushFuncRef(L: number, ref: string): void {
    const lua = this.lua;
    lua.ensure(L, 3);
    lua.newTable(L, 0, 1);
    lua.pushString(L, ref);
    lua.rawSetField(L, -2, '__cfx_functionReference');
    lua.pushRef(L, this.entries.funcrefMt);
    lua.setMetatable(L, -2);
    this.host.duplicateRef(ref);
  }

  private pushVector(L: number, components: number[], kind: number): void {
    const lua = this.lua;
    lua.ensure(L, 3);
    lua.newTable(L, 0, components.length);
    components.forEach((value, i) => {
      lua.pushNumber(L, value);
      lua.rawSetField(L, -2, 'xyzw'[i] as string);
    });
    lua.pushRef(L, this.entries.vectorMts[Math.min(kind, 5) - 2] as number);
    lua.setMetatable(L, -2);
  }

  private vectorKind(L: number, idx: number): number {
    const lua = this.lua;
    if (!lua.getMetatable(L, idx)) return 0;
    const type = lua.rawGetField(L, -1, '__cfx_vec');
    const kind = type === LuaType.Number ? lua.toNumber(L, -1) : 0;
    lua.pop(L, 2);
    return kind;
  }

  /** A native's argument: callbacks become references (_mfr), tables plain values, scalars as they are. */
  nativeArg(L: number, i: number): unknown {
    const lua = this.lua;
    switch (lua.type(L, i)) {
      case LuaType.Function:
        return this.makeRef(L, i);
      case LuaType.Table: {
        if (lua.rawGetField(L, i, '__cfx_functionReference') === LuaType.String) {
          const ref = lua.toString(L, -1);
          lua.pop(L);
          return ref;
        }
        lua.pop(L);
        return this.codec.toJs(L, i);
      }
      case LuaType.Nil:
      case LuaType.None:
        return undefined;
      default:
        return this.codec.toJs(L, i);
    }
  }

  sendToServer(L: number, firstArg: number): void {
    const name = ts(this.nativeArg(L, 1));
    if (name === null) throw new LuaRaise('Argument at index 0 was null.');
    const payload = this.codec.packArgs(L, firstArg, this.lua.top(L));
    this.host.world.sendToServer(this.host.playerId ?? 0, name, payload, this.resource.name);
  }

  sendToClients(L: number, firstArg: number): void {
    const name = ts(this.nativeArg(L, 1));
    if (name === null) throw new LuaRaise('Argument at index 0 was null.');
    const target = ts(this.nativeArg(L, 2));
    if (target === null) throw new LuaRaise('Argument at index 1 was null.');
    const payload = this.codec.packArgs(L, firstArg, this.lua.top(L));
    this.host.world.sendToClients(target, name, payload, this.resource.name);
  }

  // --- calls from the host -------------------------------------------------------------------------------------

  /** Runs `fn` on the entry thread of the current nesting depth. */
  private call<T>(fn: (T: number) => T): T {
    const { lua, L } = this;
    let thread = this.threads[this.depth];
    if (thread === undefined) {
      thread = lua.newThread(L);
      lua.ref(L);
      this.threads.push(thread);
    }
    this.depth++;
    try {
      return fn(thread);
    } finally {
      this.depth--;
      lua.setTop(thread, 0);
      if (this.depth === 0) this.afterCall();
    }
  }

  private afterCall(): void {
    if (!this.alive) {
      this.close();
      return;
    }
    if (this.pendingUnrefs.length) {
      for (const ref of this.pendingUnrefs) this.lua.unref(this.L, ref);
      this.pendingUnrefs = [];
    }
  }

  /** Pushes a decoded payload; a payload Lua cannot decode arrives as nil. */
  private pushPayload(T: number, bytes: Uint8Array): void {
    const top = this.lua.top(T);
    try {
      this.codec.push(T, bytes);
    } catch {
      this.lua.setTop(T, top);
      this.lua.pushNil(T);
    }
  }

  dispatchEvent(name: string, payload: Uint8Array, source: string): void {
    if (!this.alive) return;
    this.call((T) => {
      const lua = this.lua;
      lua.ensure(T, 6);
      lua.pushRef(T, this.entries.event);
      lua.pushString(T, name);
      this.pushPayload(T, payload);
      lua.pushString(T, source);
      if (lua.pcall(T, 3, 0) !== 0) this.internalError(`event ${name}`, lua.toString(T, -1));
    });
  }

  callRef(index: number, args: Uint8Array): Uint8Array {
    const registryRef = this.refs.get(index);
    if (registryRef === undefined || !this.alive) {
      this.print(`Invalid ref call attempt: ${index}\n`);
      return PACKED_NIL;
    }
    return this.call((T) => {
      const lua = this.lua;
      lua.ensure(T, 5);
      lua.pushRef(T, this.entries.callRef);
      lua.pushRef(T, registryRef);
      this.pushPayload(T, args);
      if (lua.pcall(T, 2, 1) !== 0) {
        this.internalError('ref call', lua.toString(T, -1));
        return PACKED_NIL;
      }
      return this.codec.packValue(T, -1);
    });
  }

  duplicateRef(index: number): void {
    this.refs.duplicate(index);
  }

  deleteRef(index: number): void {
    const registryRef = this.refs.release(index);
    if (registryRef !== undefined) this.pendingUnrefs.push(registryRef);
  }

  tick(now: number): void {
    if (!this.alive || !Number.isFinite(this.wakeAt) || this.wakeAt > now) {
      if (this.depth === 0 && this.pendingUnrefs.length) this.afterCall();
      return;
    }
    this.call((T) => {
      const lua = this.lua;
      lua.ensure(T, 3);
      lua.pushRef(T, this.entries.tick);
      lua.pushInteger(T, now - this.host.world.startedAt);
      if (lua.pcall(T, 1, 1) !== 0) {
        this.internalError('tick', lua.toString(T, -1));
        return;
      }
      const next = lua.toNumber(T, -1);
      this.wakeAt = Number.isFinite(next) ? next + this.host.world.startedAt : Number.POSITIVE_INFINITY;
    });
  }

  /** Threads report new wake times through `cfx.wake`, which pokes the host; keep the earliest here too. */
  noteWake(at: number): void {
    this.wakeAt = Math.min(this.wakeAt, at);
  }

  nextWake(): number {
    return this.wakeAt;
  }

  loadScript(file: string, code: Uint8Array): void {
    if (!this.alive) return;
    this.call((T) => {
      const lua = this.lua;
      lua.ensure(T, 4);
      if (lua.load(T, code, `@@${this.resource.name}/${file}`) !== 0) {
        this.host.scriptLoadError(this.resource.name, file, 'parse', lua.toString(T, -1));
        return;
      }
      lua.pushRef(T, this.entries.run);
      lua.insert(T, -2);
      if (lua.pcall(T, 1, 2) !== 0 || !lua.toBoolean(T, -2)) {
        this.host.scriptLoadError(this.resource.name, file, 'load', lua.toString(T, -1));
      }
    });
  }

  private internalError(where: string, message: string): void {
    this.host.scriptError(this.resource.name, 'lua', `${where}: ${message}`);
  }

  destroy(): void {
    if (!this.alive) return;
    this.alive = false;
    this.wakeAt = Number.POSITIVE_INFINITY;
    // A runtime stopped from inside its own call closes when that call returns.
    if (this.depth === 0) this.close();
  }

  private closed = false;

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.refs.clear();
    // Closing collects this state's reference tables; their __gc still needs the id to release references.
    this.lua.closeState(this.L);
    runtimesById.delete(this.instanceId);
  }
}
