// Every way a value crosses between a Lua state and the host: msgpack both ways (lua-pack.ts, lua-unpack.ts) and
// plain JS values for JSON and natives (lua-plain.ts).
import type { LuaModule } from './lua-api.js';
import type { LuaCodecHooks } from './lua-codec-hooks.js';
import { LuaPacker } from './lua-pack.js';
import { LuaPlainValues } from './lua-plain.js';
import { LuaUnpacker } from './lua-unpack.js';

export class LuaCodec {
  private readonly packer: LuaPacker;
  private readonly unpacker: LuaUnpacker;
  private readonly plain: LuaPlainValues;

  constructor(lua: LuaModule, hooks: LuaCodecHooks) {
    this.packer = new LuaPacker(lua, hooks);
    this.unpacker = new LuaUnpacker(lua, hooks);
    this.plain = new LuaPlainValues(lua, hooks);
  }

  /** Packs stack values [from, to] as one msgpack array (msgpack.pack_args / TriggerEvent payloads). */
  packArgs(L: number, from: number, to: number): Uint8Array {
    return this.packer.packArgs(L, from, to);
  }

  /** Packs one stack value. */
  packValue(L: number, idx: number): Uint8Array {
    return this.packer.packValue(L, idx);
  }

  /** Decodes one msgpack value and pushes it. */
  push(L: number, bytes: Uint8Array): void {
    this.unpacker.push(L, bytes);
  }

  /** Decodes every value of a msgpack stream (msgpack.unpack); returns how many were pushed. */
  pushAll(L: number, bytes: Uint8Array): number {
    return this.unpacker.pushAll(L, bytes);
  }

  /** A Lua value as a plain JS value (json.encode rules). */
  toJs(L: number, idx: number): unknown {
    return this.plain.toJs(L, idx);
  }

  /** Pushes a plain JS value (json.decode, native results): objects become tables, null becomes nil. */
  pushJs(L: number, value: unknown): void {
    this.plain.pushJs(L, value);
  }
}
