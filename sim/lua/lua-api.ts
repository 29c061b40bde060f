// The raw Lua 5.4 C API of one wasmoon wasm instance. The simulator does not use wasmoon's automatic value
// proxying: every value crossing into or out of Lua goes through msgpack (lua-codec.ts), as in FXServer, so only
// the C API is needed. One wasm instance hosts many lua_States (one per resource runtime), which keeps a Lua
// runtime at a few hundred kilobytes; a new instance is opened when one fills up (wasm memory stops at 2 GiB).
import { LuaFactory } from 'wasmoon';

export const LUA_REGISTRYINDEX = -1001000;
const LUA_RIDX_GLOBALS = 2n;
export const LUA_MULTRET = -1;

export const LuaType = {
  None: -1,
  Nil: 0,
  Boolean: 1,
  LightUserdata: 2,
  Number: 3,
  String: 4,
  Table: 5,
  Function: 6,
  Userdata: 7,
  Thread: 8,
} as const;

export const LuaStatus = { Ok: 0, Yield: 1, ErrRun: 2, ErrSyntax: 3, ErrMem: 4, ErrErr: 5 } as const;

/** The raw exports of the emscripten module that the simulator uses. */
interface RawModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  addFunction(fn: (...args: number[]) => number, signature: string): number;
  removeFunction(ptr: number): void;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _luaL_newstate(): number;
  _luaL_openlibs(L: number): void;
  _lua_close(L: number): void;
  _lua_newthread(L: number): number;
  _lua_gettop(L: number): number;
  _lua_settop(L: number, idx: number): void;
  _lua_absindex(L: number, idx: number): number;
  _lua_checkstack(L: number, n: number): number;
  _lua_pushvalue(L: number, idx: number): void;
  _lua_rotate(L: number, idx: number, n: number): void;
  _lua_type(L: number, idx: number): number;
  _lua_toboolean(L: number, idx: number): number;
  _lua_isinteger(L: number, idx: number): number;
  _lua_tonumberx(L: number, idx: number, isnum: number): number;
  _lua_tointegerx(L: number, idx: number, isnum: number): bigint;
  _lua_tolstring(L: number, idx: number, len: number): number;
  _lua_rawlen(L: number, idx: number): number;
  _lua_pushnil(L: number): void;
  _lua_pushboolean(L: number, b: number): void;
  _lua_pushinteger(L: number, n: bigint): void;
  _lua_pushnumber(L: number, n: number): void;
  _lua_pushlstring(L: number, ptr: number, len: number): number;
  _lua_pushcclosure(L: number, fn: number, n: number): void;
  _lua_createtable(L: number, narr: number, nrec: number): void;
  _lua_rawget(L: number, idx: number): number;
  _lua_rawgeti(L: number, idx: number, n: bigint): number;
  _lua_rawset(L: number, idx: number): void;
  _lua_rawseti(L: number, idx: number, n: bigint): void;
  _lua_next(L: number, idx: number): number;
  _lua_getmetatable(L: number, idx: number): number;
  _lua_setmetatable(L: number, idx: number): number;
  _lua_rawequal(L: number, a: number, b: number): number;
  _lua_pcallk(L: number, nargs: number, nresults: number, msgh: number, ctx: number, k: number): number;
  _lua_error(L: number): number;
  _luaL_loadbufferx(L: number, buf: number, size: number, name: number, mode: number): number;
  _luaL_ref(L: number, t: number): number;
  _luaL_unref(L: number, t: number, ref: number): void;
}

/** A JS function Lua can call: gets the calling lua_State, returns how many values it pushed. */
export type CFunction = (L: number) => number;

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Thrown (as a Lua error) by C functions; carries the message Lua sees. */
export class LuaRaise extends Error {}

export class LuaModule {
  /** lua_States currently open in this instance. */
  states = 0;
  private readonly m: RawModule;
  private readonly lenPtr: number;
  private scratch = 0;
  private scratchSize = 0;
  private readonly cfunctions = new Map<CFunction, number>();

  private constructor(m: RawModule) {
    this.m = m;
    this.lenPtr = m._malloc(8);
  }

  static async open(): Promise<LuaModule> {
    const lua = await new LuaFactory().getLuaModule();
    return new LuaModule(lua.module as unknown as RawModule);
  }

  newState(): number {
    const L = this.m._luaL_newstate();
    this.m._luaL_openlibs(L);
    this.states++;
    return L;
  }

  closeState(L: number): void {
    this.m._lua_close(L);
    this.states--;
  }

  newThread(L: number): number {
    return this.m._lua_newthread(L);
  }

  // --- stack -------------------------------------------------------------------------------------------------
  top(L: number): number {
    return this.m._lua_gettop(L);
  }
  setTop(L: number, idx: number): void {
    this.m._lua_settop(L, idx);
  }
  pop(L: number, n = 1): void {
    this.m._lua_settop(L, -n - 1);
  }
  abs(L: number, idx: number): number {
    return this.m._lua_absindex(L, idx);
  }
  ensure(L: number, n: number): void {
    if (!this.m._lua_checkstack(L, n)) throw new LuaRaise('stack overflow (value nested too deeply)');
  }
  pushValue(L: number, idx: number): void {
    this.m._lua_pushvalue(L, idx);
  }
  /** Moves the top value to `idx`, shifting the rest up (lua_insert). */
  insert(L: number, idx: number): void {
    this.m._lua_rotate(L, idx, 1);
  }
  type(L: number, idx: number): number {
    return this.m._lua_type(L, idx);
  }
  rawEqual(L: number, a: number, b: number): boolean {
    return this.m._lua_rawequal(L, a, b) !== 0;
  }

  // --- reading -----------------------------------------------------------------------------------------------
  toBoolean(L: number, idx: number): boolean {
    return this.m._lua_toboolean(L, idx) !== 0;
  }
  isInteger(L: number, idx: number): boolean {
    return this.m._lua_isinteger(L, idx) !== 0;
  }
  toNumber(L: number, idx: number): number {
    return this.m._lua_tonumberx(L, idx, 0);
  }
  toBigInt(L: number, idx: number): bigint {
    return this.m._lua_tointegerx(L, idx, 0);
  }
  /** The raw bytes of a string (or number) value; a view that is only valid until Lua runs again. */
  toBytesView(L: number, idx: number): Uint8Array {
    const ptr = this.m._lua_tolstring(L, idx, this.lenPtr);
    if (!ptr) return new Uint8Array(0);
    const len = this.m.HEAPU32[this.lenPtr >> 2] ?? 0;
    return this.m.HEAPU8.subarray(ptr, ptr + len);
  }
  toBytes(L: number, idx: number): Uint8Array {
    return this.toBytesView(L, idx).slice();
  }
  toString(L: number, idx: number): string {
    return utf8Decoder.decode(this.toBytesView(L, idx));
  }
  rawLen(L: number, idx: number): number {
    return this.m._lua_rawlen(L, idx);
  }

  // --- pushing -----------------------------------------------------------------------------------------------
  pushNil(L: number): void {
    this.m._lua_pushnil(L);
  }
  pushBoolean(L: number, b: boolean): void {
    this.m._lua_pushboolean(L, b ? 1 : 0);
  }
  pushInteger(L: number, n: number | bigint): void {
    this.m._lua_pushinteger(L, typeof n === 'bigint' ? n : BigInt(n));
  }
  pushNumber(L: number, n: number): void {
    this.m._lua_pushnumber(L, n);
  }
  /** Integers as Lua integers, everything else as floats (what a number returned by a native looks like). */
  pushJsNumber(L: number, n: number): void {
    if (Number.isSafeInteger(n)) this.pushInteger(L, n);
    else this.pushNumber(L, n);
  }
  pushBytes(L: number, bytes: Uint8Array): void {
    const ptr = this.scratchFor(bytes.length);
    this.m.HEAPU8.set(bytes, ptr);
    this.m._lua_pushlstring(L, ptr, bytes.length);
  }
  /** Encodes straight into wasm memory (TextEncoder.encode would allocate for every key and name). */
  pushString(L: number, s: string): void {
    const capacity = s.length * 3;
    const ptr = this.scratchFor(capacity);
    const { written } = utf8.encodeInto(s, this.m.HEAPU8.subarray(ptr, ptr + capacity));
    this.m._lua_pushlstring(L, ptr, written);
  }
  pushCFunction(L: number, fn: CFunction, upvalues = 0): void {
    this.m._lua_pushcclosure(L, this.cfunction(fn), upvalues);
  }
  /** Index of upvalue `i` of the running C closure. */
  upvalue(i: number): number {
    return LUA_REGISTRYINDEX - i;
  }

  // --- tables ------------------------------------------------------------------------------------------------
  newTable(L: number, narr = 0, nrec = 0): void {
    this.m._lua_createtable(L, narr, nrec);
  }
  rawGet(L: number, idx: number): number {
    return this.m._lua_rawget(L, idx);
  }
  rawGetI(L: number, idx: number, n: number): number {
    return this.m._lua_rawgeti(L, idx, BigInt(n));
  }
  rawSet(L: number, idx: number): void {
    this.m._lua_rawset(L, idx);
  }
  rawSetI(L: number, idx: number, n: number): void {
    this.m._lua_rawseti(L, idx, BigInt(n));
  }
  /** t[key] with a string key, without metamethods; pushes the value and returns its type. */
  rawGetField(L: number, idx: number, key: string): number {
    const t = this.abs(L, idx);
    this.pushString(L, key);
    return this.rawGet(L, t);
  }
  /** t[key] = top, without metamethods; pops the value. */
  rawSetField(L: number, idx: number, key: string): void {
    const t = this.abs(L, idx);
    this.pushString(L, key);
    this.insert(L, -2);
    this.rawSet(L, t);
  }
  next(L: number, idx: number): boolean {
    return this.m._lua_next(L, idx) !== 0;
  }
  getMetatable(L: number, idx: number): boolean {
    return this.m._lua_getmetatable(L, idx) !== 0;
  }
  setMetatable(L: number, idx: number): void {
    this.m._lua_setmetatable(L, idx);
  }
  pushGlobals(L: number): void {
    this.m._lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  }
  /** _G[name] = top (raw); pops the value. */
  setGlobal(L: number, name: string): void {
    this.pushGlobals(L);
    this.insert(L, -2);
    this.rawSetField(L, -2, name);
    this.pop(L);
  }

  // --- registry ----------------------------------------------------------------------------------------------
  /** Pops the top value into the registry; returns its reference. */
  ref(L: number): number {
    return this.m._luaL_ref(L, LUA_REGISTRYINDEX);
  }
  unref(L: number, ref: number): void {
    this.m._luaL_unref(L, LUA_REGISTRYINDEX, ref);
  }
  pushRef(L: number, ref: number): void {
    this.m._lua_rawgeti(L, LUA_REGISTRYINDEX, BigInt(ref));
  }

  // --- calls -------------------------------------------------------------------------------------------------
  pcall(L: number, nargs: number, nresults: number): number {
    return this.m._lua_pcallk(L, nargs, nresults, 0, 0, 0);
  }
  /** Compiles a chunk and pushes it (or the error message); returns the status. */
  load(L: number, code: Uint8Array, chunkName: string): number {
    const name = utf8.encode(`${chunkName}\0`);
    const buf = this.m._malloc(code.length + name.length);
    this.m.HEAPU8.set(code, buf);
    this.m.HEAPU8.set(name, buf + code.length);
    try {
      return this.m._luaL_loadbufferx(L, buf, code.length, buf + code.length, 0);
    } finally {
      this.m._free(buf);
    }
  }

  private scratchFor(size: number): number {
    if (size > this.scratchSize) {
      if (this.scratch) this.m._free(this.scratch);
      this.scratchSize = Math.max(size, this.scratchSize * 2, 256);
      this.scratch = this.m._malloc(this.scratchSize);
    }
    return this.scratch;
  }

  /** One wasm function per JS function for the whole instance; JS errors become Lua errors. */
  private cfunction(fn: CFunction): number {
    let ptr = this.cfunctions.get(fn);
    if (ptr === undefined) {
      ptr = this.m.addFunction((L: number) => {
        let message: string;
        try {
          return fn(L);
        } catch (e) {
          // A longjmp unwinding through this frame (emscripten throws Infinity for it) must keep going.
          if (e === Infinity) throw e;
          message = e instanceof Error ? e.message : String(e);
        }
        this.pushString(L, message);
        return this.m._lua_error(L);
      }, 'ii');
      this.cfunctions.set(fn, ptr);
    }
    return ptr;
  }
}

/** Hands out lua_States, opening a new wasm instance when the current one holds `perModule` states. */
export class LuaPool {
  private readonly modules: LuaModule[] = [];
  private opening: Promise<LuaModule> | null = null;

  constructor(private readonly perModule = 400) {}

  /** Makes sure `count` more states fit in open instances (opening wasm instances is asynchronous). */
  async reserve(count: number): Promise<void> {
    for (;;) {
      const free = this.modules.reduce((n, m) => n + Math.max(0, this.perModule - m.states), 0);
      if (free >= count) return;
      if (!this.opening) {
        this.opening = LuaModule.open().then((m) => {
          this.modules.push(m);
          this.opening = null;
          return m;
        });
      }
      await this.opening;
    }
  }

  /** An open instance with room (resource starts are synchronous, so room is reserved beforehand). */
  module(): LuaModule {
    const free = this.modules.find((m) => m.states < this.perModule) ?? this.modules[this.modules.length - 1];
    if (!free) throw new Error('sim: no Lua instance is open (LuaPool.reserve was not awaited)');
    return free;
  }
}

/** One pool for the whole process: simulators started one after another reuse the same wasm instances. */
export const sharedLuaPool = new LuaPool();
