// Lua values <-> plain JS values, for json.encode/json.decode and for natives' arguments and results (not the
// msgpack boundary): json's rules, so the empty table is [] and arrays may have holes (as null).
import { type LuaModule, LuaRaise, LuaType } from './lua-api.js';
import type { LuaCodecHooks } from './lua-codec-hooks.js';

export class LuaPlainValues {
  constructor(
    private readonly lua: LuaModule,
    private readonly hooks: LuaCodecHooks,
  ) {}

  /** A Lua value as a plain JS value (json.encode rules: empty table → [], holes allowed in arrays). */
  toJs(L: number, idx: number, depth = 0): unknown {
    const lua = this.lua;
    switch (lua.type(L, idx)) {
      case LuaType.None:
      case LuaType.Nil:
        return null;
      case LuaType.Boolean:
        return lua.toBoolean(L, idx);
      case LuaType.Number:
        return lua.isInteger(L, idx) ? Number(lua.toBigInt(L, idx)) : lua.toNumber(L, idx);
      case LuaType.String:
        return lua.toString(L, idx);
      case LuaType.Table:
        if (depth > 32) throw new LuaRaise('Cannot serialise, excessive nesting (33)');
        return this.tableToJs(L, lua.abs(L, idx), depth);
      default:
        throw new LuaRaise(`Cannot serialise ${lua.type(L, idx) === LuaType.Function ? 'function' : 'userdata'}`);
    }
  }

  private tableToJs(L: number, t: number, depth: number): unknown {
    const lua = this.lua;
    lua.ensure(L, 4);
    const vector = this.hooks.vectorKind(L, t);
    if (vector) {
      const names = ['x', 'y', 'z', 'w'].slice(0, vector === 5 ? 4 : vector);
      return names.map((name) => {
        lua.rawGetField(L, t, name);
        const v = lua.toNumber(L, -1);
        lua.pop(L);
        return v;
      });
    }
    const entries: [unknown, unknown][] = [];
    let allPositiveInts = true;
    let max = 0;
    lua.pushNil(L);
    while (lua.next(L, t)) {
      const key = this.toJs(L, -2, depth + 1);
      if (!(typeof key === 'number' && Number.isInteger(key) && key >= 1)) allPositiveInts = false;
      else max = Math.max(max, key);
      entries.push([key, this.toJs(L, -1, depth + 1)]);
      lua.pop(L);
    }
    if (allPositiveInts && (max < 16 || entries.length >= max / 2)) {
      const out: unknown[] = new Array(max).fill(null);
      for (const [k, v] of entries) out[(k as number) - 1] = v;
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      if (typeof k !== 'string' && typeof k !== 'number') throw new LuaRaise('table key must be a number or string');
      out[String(k)] = v;
    }
    return out;
  }

  /** Pushes a plain JS value (json.decode, native results): objects become tables, null becomes nil. */
  pushJs(L: number, value: unknown, depth = 0): void {
    const lua = this.lua;
    if (value === null || value === undefined) {
      lua.pushNil(L);
      return;
    }
    switch (typeof value) {
      case 'boolean':
        lua.pushBoolean(L, value);
        return;
      case 'number':
        lua.pushJsNumber(L, value);
        return;
      case 'bigint':
        lua.pushInteger(L, value);
        return;
      case 'string':
        lua.pushString(L, value);
        return;
      case 'object': {
        if (depth > 64) throw new LuaRaise('value nested too deeply');
        lua.ensure(L, 3);
        if (Array.isArray(value)) {
          lua.newTable(L, value.length, 0);
          value.forEach((item, i) => {
            this.pushJs(L, item, depth + 1);
            lua.rawSetI(L, -2, i + 1);
          });
          return;
        }
        const keys = Object.keys(value);
        lua.newTable(L, 0, keys.length);
        for (const key of keys) {
          this.pushJs(L, (value as Record<string, unknown>)[key], depth + 1);
          lua.rawSetField(L, -2, key);
        }
        return;
      }
      default:
        lua.pushNil(L);
        return;
    }
  }
}
