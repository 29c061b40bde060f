// The host side of a Lua runtime: the C functions prelude.lua receives in its `cfx` table, and the trampolines
// that bind natives. They are created once per wasm instance; upvalue 1 of every closure is the runtime's id.
import type { Host } from '../host/host.js';
import type { ResourceInstance } from '../host/resource.js';
import { knownNatives, type NativeContext, type NativeDef, nativeFor, notEmulated } from '../natives/registry.js';
import { type CFunction, type LuaModule, LuaRaise, LuaType } from './lua-api.js';
import type { LuaCodec } from './lua-codec.js';

/** What the host functions need from the runtime that owns the calling state. */
export interface LuaHostSide {
  readonly instanceId: number;
  readonly alive: boolean;
  readonly host: Host;
  readonly resource: ResourceInstance;
  readonly codec: LuaCodec;
  readonly nativeContext: NativeContext;
  print(text: string): void;
  gameTimer(): number;
  noteWake(at: number): void;
  makeRef(L: number, idx: number): string;
  nativeArg(L: number, i: number): unknown;
  sendToServer(L: number, firstArg: number): void;
  sendToClients(L: number, firstArg: number): void;
}

/** Live Lua runtimes by instance id (the id is what a C closure carries). */
export const runtimesById = new Map<number, LuaHostSide>();
const nativeTable: NativeDef[] = [];
const nativeIndex = new Map<NativeDef, number>();

function indexOfNative(def: NativeDef): number {
  let i = nativeIndex.get(def);
  if (i === undefined) {
    i = nativeTable.push(def) - 1;
    nativeIndex.set(def, i);
  }
  return i;
}

export type Fns = Record<
  | 'trace'
  | 'scriptError'
  | 'now'
  | 'wallNow'
  | 'wake'
  | 'trigger'
  | 'triggerServer'
  | 'triggerLatentServer'
  | 'triggerClient'
  | 'triggerLatentClient'
  | 'invokeRef'
  | 'makeRef'
  | 'delRef'
  | 'bindNative'
  | 'native'
  | 'stub'
  | 'sbGet'
  | 'sbSet'
  | 'pack'
  | 'unpack'
  | 'jsonEncode'
  | 'jsonDecode',
  CFunction
>;

const fnsByModule = new WeakMap<LuaModule, Fns>();

/** The host functions, created once per wasm instance; upvalue 1 of every closure is the runtime's id. */
export function hostFunctions(lua: LuaModule): Fns {
  const cached = fnsByModule.get(lua);
  if (cached) return cached;
  const rt = (L: number): LuaHostSide => {
    const runtime = runtimesById.get(Number(lua.toBigInt(L, lua.upvalue(1))));
    if (!runtime?.alive) throw new LuaRaise('this resource is no longer running');
    return runtime;
  };
  const fns: Fns = {
    trace: (L) => {
      rt(L).print(lua.toString(L, 1));
      return 0;
    },
    scriptError: (L) => {
      const r = rt(L);
      r.host.scriptError(r.resource.name, 'lua', lua.toString(L, 1));
      return 0;
    },
    now: (L) => {
      lua.pushInteger(L, rt(L).gameTimer());
      return 1;
    },
    wallNow: (L) => {
      const { side, world } = rt(L).host;
      // Clients are other machines: only the server's wall clock jumps.
      lua.pushInteger(L, Math.floor(side === 'server' ? world.clock.wallNow() : world.clock.now()));
      return 1;
    },
    wake: (L) => {
      const r = rt(L);
      const at = lua.toNumber(L, 1) + r.host.world.startedAt;
      r.noteWake(at);
      r.host.poke(at);
      return 0;
    },
    trigger: (L) => {
      const r = rt(L);
      const payload = r.codec.packArgs(L, 2, lua.top(L));
      r.host.triggerEvent(lua.toString(L, 1), payload, '', { sender: r.resource.name });
      return 0;
    },
    triggerServer: (L) => {
      const r = rt(L);
      r.sendToServer(L, 2);
      return 0;
    },
    triggerLatentServer: (L) => {
      const r = rt(L);
      r.sendToServer(L, 3);
      return 0;
    },
    triggerClient: (L) => {
      rt(L).sendToClients(L, 3);
      return 0;
    },
    triggerLatentClient: (L) => {
      rt(L).sendToClients(L, 4);
      return 0;
    },
    invokeRef: (L) => {
      const r = rt(L);
      const result = r.host.invokeRef(lua.toString(L, 1), r.codec.packArgs(L, 2, lua.top(L)));
      r.codec.push(L, result);
      return 1;
    },
    makeRef: (L) => {
      lua.pushString(L, rt(L).makeRef(L, 1));
      return 1;
    },
    delRef: (L) => {
      // Runs from __gc (possibly while the runtime closes): never raises.
      const runtime = runtimesById.get(Number(lua.toBigInt(L, lua.upvalue(1))));
      if (runtime && lua.type(L, 1) === LuaType.String) runtime.host.deleteRef(lua.toString(L, 1));
      return 0;
    },
    bindNative: (L) => {
      const r = rt(L);
      const name = lua.toString(L, 1);
      const def = nativeFor(r.host.side, name);
      if (def) {
        lua.pushInteger(L, r.instanceId);
        lua.pushInteger(L, indexOfNative(def));
        lua.pushCFunction(L, fns.native, 2);
        return 1;
      }
      if (knownNatives(r.host.side).has(name)) {
        lua.pushInteger(L, r.instanceId);
        lua.pushString(L, name);
        lua.pushCFunction(L, fns.stub, 2);
        return 1;
      }
      lua.pushNil(L);
      return 1;
    },
    native: (L) => {
      const r = rt(L);
      const def = nativeTable[Number(lua.toBigInt(L, lua.upvalue(2)))] as NativeDef;
      const args: unknown[] = [];
      for (let i = 1, n = lua.top(L); i <= n; i++) args.push(r.nativeArg(L, i));
      const result = def.impl(r.nativeContext, ...args);
      if (result === undefined) return 0;
      r.codec.pushJs(L, result);
      return 1;
    },
    stub: (L) => {
      throw notEmulated(rt(L).host.side, lua.toString(L, lua.upvalue(2)));
    },
    sbGet: (L) => {
      const r = rt(L);
      const bytes = r.host.world.stateBagGet(r.host, lua.toString(L, 1), lua.toString(L, 2));
      if (bytes) r.codec.push(L, bytes);
      else lua.pushNil(L);
      return 1;
    },
    sbSet: (L) => {
      const r = rt(L);
      const value = r.codec.packValue(L, 3);
      r.host.world.stateBagSet(r.host, lua.toString(L, 1), lua.toString(L, 2), value, lua.toBoolean(L, 4));
      return 0;
    },
    pack: (L) => {
      const r = rt(L);
      const parts: Uint8Array[] = [];
      for (let i = 1, n = lua.top(L); i <= n; i++) parts.push(r.codec.packValue(L, i));
      lua.pushBytes(L, Buffer.concat(parts));
      return 1;
    },
    unpack: (L) => {
      const r = rt(L);
      return r.codec.pushAll(L, lua.toBytes(L, 1));
    },
    jsonEncode: (L) => {
      const r = rt(L);
      const value = r.codec.toJs(L, 1);
      const sorted = lua.toBoolean(L, 3) ? sortKeys(value) : value;
      lua.pushString(L, JSON.stringify(sorted, null, lua.toBoolean(L, 2) ? 2 : undefined) ?? 'null');
      return 1;
    },
    jsonDecode: (L) => {
      const r = rt(L);
      let value: unknown;
      try {
        value = JSON.parse(lua.toString(L, 1));
      } catch (e) {
        lua.pushNil(L);
        lua.pushString(L, e instanceof Error ? e.message : String(e));
        return 2;
      }
      r.codec.pushJs(L, value);
      return 1;
    },
  };
  fnsByModule.set(lua, fns);
  return fns;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
