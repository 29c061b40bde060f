// Lua values → msgpack, written against the raw C API so the rules are those of citizenfx/lua-cmsgpack as
// scheduler.lua configures it (fivem-runtime.md §1.5): integers as (unsigned when positive) msgpack ints, floats
// with an integral value as ints too, other floats as doubles; strings in the v4 "raw" forms; a table is an array
// only when its keys are exactly 1..n (or the `n = select('#', ...)` idiom), the empty table is an array, holes or
// other keys make a map; functions become function references (ext 10); nesting deeper than 16 packs nil.
import { EXT_FUNCREF } from '../codec/msgpack.js';
import { type LuaModule, LuaType } from './lua-api.js';
import type { LuaCodecHooks } from './lua-codec-hooks.js';

const MAX_DEPTH = 16;
const EXT_VECTOR2 = 20;

class Writer {
  buf = new Uint8Array(256);
  view = new DataView(this.buf.buffer);
  pos = 0;

  reset(): void {
    this.pos = 0;
  }
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }
  u16(v: number): void {
    this.ensure(2);
    this.view.setUint16(this.pos, v);
    this.pos += 2;
  }
  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v);
    this.pos += 4;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

const utf8 = new TextEncoder();

export class LuaPacker {
  private readonly w = new Writer();

  constructor(
    private readonly lua: LuaModule,
    private readonly hooks: LuaCodecHooks,
  ) {}

  /** Packs stack values [from, to] as one msgpack array (msgpack.pack_args / TriggerEvent payloads). */
  packArgs(L: number, from: number, to: number): Uint8Array {
    const w = this.w;
    w.reset();
    const n = Math.max(0, to - from + 1);
    this.arrayHead(n);
    for (let i = from; i <= to; i++) this.value(L, i, 1);
    return w.result();
  }

  /** Packs one stack value. */
  packValue(L: number, idx: number): Uint8Array {
    this.w.reset();
    this.value(L, this.lua.abs(L, idx), 0);
    return this.w.result();
  }

  private arrayHead(n: number): void {
    this.collectionHead(n, 0x90, 0xdc);
  }

  private mapHead(n: number): void {
    this.collectionHead(n, 0x80, 0xde);
  }

  /** The fix form below 16 entries, else the 16-bit form or, one code on, the 32-bit one. */
  private collectionHead(n: number, fix: number, code16: number): void {
    const w = this.w;
    if (n < 16) w.u8(fix | n);
    else if (n <= 0xffff) {
      w.u8(code16);
      w.u16(n);
    } else {
      w.u8(code16 + 1);
      w.u32(n);
    }
  }

  private integer(n: bigint): void {
    const w = this.w;
    if (n >= 0n) {
      if (n <= 0x7fn) w.u8(Number(n));
      else if (n <= 0xffn) {
        w.u8(0xcc);
        w.u8(Number(n));
      } else if (n <= 0xffffn) {
        w.u8(0xcd);
        w.u16(Number(n));
      } else if (n <= 0xffffffffn) {
        w.u8(0xce);
        w.u32(Number(n));
      } else {
        w.u8(0xcf);
        w.ensure(8);
        w.view.setBigUint64(w.pos, n);
        w.pos += 8;
      }
      return;
    }
    if (n >= -32n) w.u8(Number(n) & 0xff);
    else if (n >= -128n) {
      w.u8(0xd0);
      w.u8(Number(n) & 0xff);
    } else if (n >= -32768n) {
      w.u8(0xd1);
      w.u16(Number(n) & 0xffff);
    } else if (n >= -2147483648n) {
      w.u8(0xd2);
      w.ensure(4);
      w.view.setInt32(w.pos, Number(n));
      w.pos += 4;
    } else {
      w.u8(0xd3);
      w.ensure(8);
      w.view.setBigInt64(w.pos, n);
      w.pos += 8;
    }
  }

  private float(v: number): void {
    // cmsgpack packs a float with an integral value as an integer.
    if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) {
      this.integer(BigInt(v));
      return;
    }
    const w = this.w;
    w.u8(0xcb);
    w.ensure(8);
    w.view.setFloat64(w.pos, v);
    w.pos += 8;
  }

  private string(bytes: Uint8Array): void {
    const w = this.w;
    const n = bytes.length;
    if (n < 32) w.u8(0xa0 | n);
    else if (n <= 0xffff) {
      w.u8(0xda);
      w.u16(n);
    } else {
      w.u8(0xdb);
      w.u32(n);
    }
    w.bytes(bytes);
  }

  private ext(type: number, payload: Uint8Array): void {
    const w = this.w;
    const n = payload.length;
    const fixed: Record<number, number> = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 };
    const head = fixed[n];
    if (head !== undefined) w.u8(head);
    else if (n <= 0xff) {
      w.u8(0xc7);
      w.u8(n);
    } else if (n <= 0xffff) {
      w.u8(0xc8);
      w.u16(n);
    } else {
      w.u8(0xc9);
      w.u32(n);
    }
    w.u8(type);
    w.bytes(payload);
  }

  private value(L: number, idx: number, depth: number): void {
    const lua = this.lua;
    switch (lua.type(L, idx)) {
      case LuaType.Boolean:
        this.w.u8(lua.toBoolean(L, idx) ? 0xc3 : 0xc2);
        return;
      case LuaType.Number:
        if (lua.isInteger(L, idx)) this.integer(lua.toBigInt(L, idx));
        else this.float(lua.toNumber(L, idx));
        return;
      case LuaType.String:
        this.string(lua.toBytesView(L, idx).slice());
        return;
      case LuaType.Function:
        this.ext(EXT_FUNCREF, utf8.encode(this.hooks.makeRef(L, idx)));
        return;
      case LuaType.Table:
        if (depth > MAX_DEPTH) this.w.u8(0xc0);
        else this.table(L, idx, depth);
        return;
      default:
        // nil, and types cmsgpack has no encoder for (userdata, threads).
        this.w.u8(0xc0);
    }
  }

  private table(L: number, t: number, depth: number): void {
    const lua = this.lua;
    lua.ensure(L, 4);
    const vector = this.hooks.vectorKind(L, t);
    if (vector) {
      this.vector(L, t, vector);
      return;
    }
    if (lua.rawGetField(L, t, '__cfx_functionReference') === LuaType.String) {
      const ref = lua.toBytes(L, -1);
      lua.pop(L);
      this.ext(EXT_FUNCREF, ref);
      return;
    }
    lua.pop(L);
    const length = this.arrayLength(L, t);
    if (length >= 0) {
      this.arrayHead(length);
      for (let i = 1; i <= length; i++) {
        lua.rawGetI(L, t, i);
        this.value(L, lua.top(L), depth + 1);
        lua.pop(L);
      }
      return;
    }
    let count = 0;
    lua.pushNil(L);
    while (lua.next(L, t)) {
      count++;
      lua.pop(L);
    }
    this.mapHead(count);
    lua.pushNil(L);
    while (lua.next(L, t)) {
      const top = lua.top(L);
      this.value(L, top - 1, depth + 1);
      this.value(L, top, depth + 1);
      lua.pop(L);
    }
  }

  /** The array length when the table packs as an array ("without_hole", "empty_table_as_array"), else -1. */
  private arrayLength(L: number, t: number): number {
    const lua = this.lua;
    let count = 0;
    let max = 0;
    lua.pushNil(L);
    while (lua.next(L, t)) {
      const keyType = lua.type(L, -2);
      if (keyType === LuaType.Number && lua.isInteger(L, -2) && lua.toBigInt(L, -2) >= 1n) {
        count++;
        max = Math.max(max, Number(lua.toBigInt(L, -2)));
      } else if (
        keyType === LuaType.String &&
        lua.isInteger(L, -1) &&
        lua.toBigInt(L, -1) >= 1n &&
        lua.toString(L, -2) === 'n'
      ) {
        // { n = select('#', ...), ... }: table.pack's length field sets the array length.
        max = Math.max(max, Number(lua.toBigInt(L, -1)));
      } else {
        lua.pop(L, 2);
        return -1;
      }
      lua.pop(L);
    }
    return max === count ? max : -1;
  }

  private vector(L: number, t: number, kind: number): void {
    const lua = this.lua;
    const names = kind === 5 ? ['x', 'y', 'z', 'w'] : ['x', 'y', 'z', 'w'].slice(0, kind);
    const payload = new DataView(new ArrayBuffer(names.length * 4));
    names.forEach((name, i) => {
      lua.rawGetField(L, t, name);
      payload.setFloat32(i * 4, lua.toNumber(L, -1), true);
      lua.pop(L);
    });
    this.ext(EXT_VECTOR2 + (kind === 5 ? 3 : kind - 2), new Uint8Array(payload.buffer));
  }
}
