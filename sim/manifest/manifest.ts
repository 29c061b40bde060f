// fxmanifest.lua is Lua: FXServer runs it with every unknown global turned into a directive that records metadata
// (citizen/scripting/resource_init.lua). `key 'value'` adds one entry; `keys { ... }` (a table) drops a trailing
// `s` and adds one entry per element; `key 'value' { ... }` also records `key_extra` as JSON. The simulator runs
// it the same way in a throwaway Lua state.
import fs from 'node:fs';
import path from 'node:path';
import type { LuaModule } from '../lua/lua-api.js';
import { LuaType } from '../lua/lua-api.js';
import { expandGlob, hasGlob } from './glob.js';

export interface Manifest {
  readonly metadata: ReadonlyMap<string, readonly string[]>;
}

const loader = Buffer.from(`
local add = ...
setmetatable(_G, {
  __index = function(t, k)
    return function(value)
      local newK = k
      if type(value) == 'table' then
        if k:sub(-1) == 's' then newK = k:sub(1, -2) end
        for _, v in ipairs(value) do add(newK, v) end
      else
        add(k, value)
      end
      return function(v2) add(newK .. '_extra', v2, true) end
    end
  end,
})
`);

export class ManifestError extends Error {}

// One directive function per wasm instance (C functions are never freed); it writes to the manifest being read.
let collecting: Map<string, string[]> | null = null;
const directiveFns = new WeakMap<LuaModule, (L: number) => number>();

function directiveFn(lua: LuaModule): (L: number) => number {
  let fn = directiveFns.get(lua);
  if (!fn) {
    fn = (S: number) => {
      const key = lua.toString(S, 1);
      const type = lua.type(S, 2);
      let value: string;
      if (lua.toBoolean(S, 3))
        value = JSON.stringify(type === LuaType.Table ? tableToJs(lua, S, 2) : lua.toString(S, 2));
      else if (type === LuaType.String || type === LuaType.Number) value = lua.toString(S, 2);
      else value = type === LuaType.Boolean ? String(lua.toBoolean(S, 2)) : '';
      const list = collecting?.get(key) ?? [];
      list.push(value);
      collecting?.set(key, list);
      return 0;
    };
    directiveFns.set(lua, fn);
  }
  return fn;
}

/** Runs `<dir>/fxmanifest.lua` and returns its metadata. */
export function readManifest(lua: LuaModule, dir: string, resourceName: string): Manifest {
  const file = path.join(dir, 'fxmanifest.lua');
  if (!fs.existsSync(file)) throw new ManifestError(`no fxmanifest.lua in ${dir}`);
  const code = fs.readFileSync(file);
  const metadata = new Map<string, string[]>();
  const L = lua.newState();
  collecting = metadata;
  try {
    if (lua.load(L, loader, '=manifest_loader') !== 0) throw new ManifestError(lua.toString(L, -1));
    lua.pushCFunction(L, directiveFn(lua));
    if (lua.pcall(L, 1, 0) !== 0) throw new ManifestError(lua.toString(L, -1));
    if (lua.load(L, code, `@@${resourceName}/fxmanifest.lua`) !== 0) throw new ManifestError(lua.toString(L, -1));
    if (lua.pcall(L, 0, 0) !== 0) throw new ManifestError(lua.toString(L, -1));
  } finally {
    collecting = null;
    lua.closeState(L);
  }
  return { metadata };
}

function tableToJs(lua: LuaModule, L: number, idx: number): unknown {
  const out: Record<string, unknown> = {};
  lua.pushNil(L);
  while (lua.next(L, idx)) {
    const t = lua.type(L, -1);
    out[lua.toString(L, -2)] = t === LuaType.Boolean ? lua.toBoolean(L, -1) : lua.toString(L, -1);
    lua.pop(L);
  }
  return out;
}

export interface ScriptEntry {
  /** The path as the resource refers to it (`@other/file.lua` for another resource's file). */
  readonly file: string;
  /** The resource folder the file is read from. */
  readonly dir: string;
  readonly relative: string;
}

/**
 * The scripts a side loads, in FXServer's order: every shared_script, then the side's scripts, each list in
 * manifest order with globs expanded in place. `@res/path` entries are read from that resource's folder.
 */
export function scriptsFor(
  manifest: Manifest,
  dir: string,
  side: 'server' | 'client',
  resolveResource: (name: string) => string | null,
): ScriptEntry[] {
  const keys = ['shared_script', side === 'server' ? 'server_script' : 'client_script'];
  const out: ScriptEntry[] = [];
  for (const key of keys) {
    for (const entry of manifest.metadata.get(key) ?? []) {
      let base = dir;
      let pattern = entry;
      const other = /^@([^/]+)\/(.+)$/.exec(entry);
      if (other) {
        const otherDir = resolveResource(other[1] as string);
        if (!otherDir) continue;
        base = otherDir;
        pattern = other[2] as string;
      }
      const files = hasGlob(pattern) ? expandGlob(base, pattern) : [pattern.replace(/\\/g, '/').replace(/^\.\//, '')];
      for (const relative of files) {
        out.push({ file: other ? `@${other[1]}/${relative}` : relative, dir: base, relative });
      }
    }
  }
  return out;
}
