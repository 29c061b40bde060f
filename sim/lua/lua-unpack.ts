// msgpack → Lua values on the stack, the way lua-cmsgpack decodes: ints as integers (beyond lua_Integer as floats),
// floats as floats, str and bin as strings, nil array elements as holes, maps with nil keys skipped, function
// references (ext 10/11) as FXServer's funcref tables, vectors (ext 20–23) as vectors, other extensions as their
// raw payload.
import { EXT_FUNCREF, EXT_LOCALFUNCREF } from '../codec/msgpack.js';
import { type LuaModule, LuaRaise, LuaType } from './lua-api.js';
import type { LuaCodecHooks } from './lua-codec-hooks.js';

const EXT_VECTOR2 = 20;
const EXT_QUAT = 23;
const utf8Decoder = new TextDecoder();

export class LuaUnpacker {
  constructor(
    private readonly lua: LuaModule,
    private readonly hooks: LuaCodecHooks,
  ) {}

  /** Decodes one msgpack value and pushes it. */
  push(L: number, bytes: Uint8Array): void {
    const reader = new Reader(bytes);
    this.pushNext(L, reader);
  }

  /** Decodes every value of a msgpack stream (msgpack.unpack); returns how many were pushed. */
  pushAll(L: number, bytes: Uint8Array): number {
    const reader = new Reader(bytes);
    let n = 0;
    while (reader.pos < bytes.length) {
      this.lua.ensure(L, 2);
      this.pushNext(L, reader);
      n++;
    }
    return n;
  }

  private pushNext(L: number, r: Reader): void {
    const lua = this.lua;
    const b = r.u8();
    if (b <= 0x7f) {
      lua.pushInteger(L, b);
      return;
    }
    if (b >= 0xe0) {
      lua.pushInteger(L, b - 0x100);
      return;
    }
    if ((b & 0xf0) === 0x80) {
      this.pushMap(L, r, b & 0x0f);
      return;
    }
    if ((b & 0xf0) === 0x90) {
      this.pushArray(L, r, b & 0x0f);
      return;
    }
    if ((b & 0xe0) === 0xa0) {
      lua.pushBytes(L, r.bytes(b & 0x1f));
      return;
    }
    switch (b) {
      case 0xc0:
        lua.pushNil(L);
        return;
      case 0xc2:
        lua.pushBoolean(L, false);
        return;
      case 0xc3:
        lua.pushBoolean(L, true);
        return;
      case 0xc4:
      case 0xd9:
        lua.pushBytes(L, r.bytes(r.u8()));
        return;
      case 0xc5:
      case 0xda:
        lua.pushBytes(L, r.bytes(r.u16()));
        return;
      case 0xc6:
      case 0xdb:
        lua.pushBytes(L, r.bytes(r.u32()));
        return;
      case 0xc7:
        this.pushExt(L, r, r.u8());
        return;
      case 0xc8:
        this.pushExt(L, r, r.u16());
        return;
      case 0xc9:
        this.pushExt(L, r, r.u32());
        return;
      case 0xca:
        lua.pushNumber(L, r.f32());
        return;
      case 0xcb:
        lua.pushNumber(L, r.f64());
        return;
      case 0xcc:
        lua.pushInteger(L, r.u8());
        return;
      case 0xcd:
        lua.pushInteger(L, r.u16());
        return;
      case 0xce:
        lua.pushInteger(L, r.u32());
        return;
      case 0xcf: {
        const v = r.u64();
        // Beyond lua_Integer: cmsgpack pushes a float.
        if (v > 0x7fffffffffffffffn) lua.pushNumber(L, Number(v));
        else lua.pushInteger(L, v);
        return;
      }
      case 0xd0:
        lua.pushInteger(L, r.i8());
        return;
      case 0xd1:
        lua.pushInteger(L, r.i16());
        return;
      case 0xd2:
        lua.pushInteger(L, r.i32());
        return;
      case 0xd3:
        lua.pushInteger(L, r.i64());
        return;
      case 0xd4:
        this.pushExt(L, r, 1);
        return;
      case 0xd5:
        this.pushExt(L, r, 2);
        return;
      case 0xd6:
        this.pushExt(L, r, 4);
        return;
      case 0xd7:
        this.pushExt(L, r, 8);
        return;
      case 0xd8:
        this.pushExt(L, r, 16);
        return;
      case 0xdc:
        this.pushArray(L, r, r.u16());
        return;
      case 0xdd:
        this.pushArray(L, r, r.u32());
        return;
      case 0xde:
        this.pushMap(L, r, r.u16());
        return;
      case 0xdf:
        this.pushMap(L, r, r.u32());
        return;
      default:
        throw new LuaRaise(`msgpack format data is invalid (0x${b.toString(16)})`);
    }
  }

  private pushArray(L: number, r: Reader, n: number): void {
    const lua = this.lua;
    lua.ensure(L, 3);
    lua.newTable(L, n, 0);
    const t = lua.top(L);
    for (let i = 1; i <= n; i++) {
      this.pushNext(L, r);
      lua.rawSetI(L, t, i);
    }
  }

  private pushMap(L: number, r: Reader, n: number): void {
    const lua = this.lua;
    lua.ensure(L, 4);
    lua.newTable(L, 0, n);
    const t = lua.top(L);
    for (let i = 0; i < n; i++) {
      this.pushNext(L, r);
      this.pushNext(L, r);
      const keyType = lua.type(L, -2);
      // A nil or NaN key cannot be stored (rawset would raise outside any protected call).
      if (keyType === LuaType.Nil || (keyType === LuaType.Number && Number.isNaN(lua.toNumber(L, -2)))) {
        lua.pop(L, 2);
      } else {
        lua.rawSet(L, t);
      }
    }
  }

  private pushExt(L: number, r: Reader, n: number): void {
    const type = r.u8();
    const payload = r.bytes(n);
    if (type === EXT_FUNCREF || type === EXT_LOCALFUNCREF) {
      this.hooks.pushFuncRef(L, utf8Decoder.decode(payload));
      return;
    }
    if (type >= EXT_VECTOR2 && type <= EXT_QUAT && payload.length % 4 === 0) {
      const view = new DataView(payload.buffer, payload.byteOffset, payload.length);
      const components: number[] = [];
      for (let i = 0; i < payload.length; i += 4) components.push(view.getFloat32(i, true));
      this.hooks.pushVector(L, components, type === EXT_QUAT ? 5 : type - EXT_VECTOR2 + 2);
      return;
    }
    // An extension with no Lua decoder arrives as its raw payload string.
    this.lua.pushBytes(L, payload);
  }
}

class Reader {
  pos = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  private need(n: number): number {
    if (this.pos + n > this.buf.length) throw new LuaRaise('msgpack format data is incomplete');
    const at = this.pos;
    this.pos += n;
    return at;
  }
  u8(): number {
    return this.view.getUint8(this.need(1));
  }
  i8(): number {
    return this.view.getInt8(this.need(1));
  }
  u16(): number {
    return this.view.getUint16(this.need(2));
  }
  i16(): number {
    return this.view.getInt16(this.need(2));
  }
  u32(): number {
    return this.view.getUint32(this.need(4));
  }
  i32(): number {
    return this.view.getInt32(this.need(4));
  }
  u64(): bigint {
    return this.view.getBigUint64(this.need(8));
  }
  i64(): bigint {
    return this.view.getBigInt64(this.need(8));
  }
  f32(): number {
    return this.view.getFloat32(this.need(4));
  }
  f64(): number {
    return this.view.getFloat64(this.need(8));
  }
  bytes(n: number): Uint8Array {
    const at = this.need(n);
    return this.buf.subarray(at, at + n);
  }
}
