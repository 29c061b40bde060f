import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LuaModule } from '../../../sim/index.js';

// The meta files of types/lua, read and run the way the test needs them.
const LUA_TYPES = join(import.meta.dirname, '..', '..', '..', 'types', 'lua');
export const metaFiles = readdirSync(LUA_TYPES).filter((name) => name.endsWith('.lua'));
export const source = (name: string) => readFileSync(join(LUA_TYPES, name), 'utf8');

// Reading a global nobody assigned is an error, as LuaLS's undefined-global check flags it: the definitions must
// declare every global they use (FiveM's `exports` among them), not lean on definitions the reader may not have.
const STRICT_GLOBALS = `
  setmetatable(_G, { __index = function(_, name) error("undefined global '" .. tostring(name) .. "'", 2) end })
`;

/** Runs the meta files in a fresh Lua state where only Lua's own globals exist, then returns what `probe` returns. */
export function runInLua(lua: LuaModule, files: string[], probe: string): string {
  const L = lua.newState();
  try {
    for (const chunk of [STRICT_GLOBALS, ...files.map(source), probe]) {
      const loaded = lua.load(L, new TextEncoder().encode(chunk), chunk.slice(0, 40));
      if (loaded !== 0 || lua.pcall(L, 0, 1) !== 0) throw new Error(lua.toString(L, -1));
    }
    return lua.toString(L, -1);
  } finally {
    lua.closeState(L);
  }
}

// Each export of exports.bridge as `name(param, ...)`: the Lua declaration's own parameter list.
const DECLARED_EXPORTS = `
  local declared = {}
  for name, fn in pairs(exports.bridge) do
    local params = {}
    for i = 1, debug.getinfo(fn, 'u').nparams do params[i] = debug.getlocal(fn, i) end
    declared[#declared + 1] = name .. '(' .. table.concat(params, ',') .. ')'
  end
  table.sort(declared)
  return table.concat(declared, ';')
`;

/** The exports the Lua files declare, each with its parameters. */
export function declaredExports(lua: LuaModule, files: string[]): Map<string, string[]> {
  const declared = runInLua(lua, files, DECLARED_EXPORTS);
  return new Map(
    declared.split(';').map((entry) => {
      const [, name = '', params = ''] = /^(\w+)\((.*)\)$/.exec(entry) ?? [];
      return [name, params.split(',')];
    }),
  );
}

/** The fields of a `---@class`, with those of the classes it extends. */
export function classFields(text: string, className: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^---@class ${className}(:|$|\\s)`).test(line));
  if (start < 0) throw new Error(`no ---@class ${className}`);
  const parents = /:\s*(.+)$/.exec(lines[start] ?? '')?.[1]?.split(',') ?? [];
  const fields: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('---') || /^---@(class|alias)\b/.test(line)) break;
    const field = /^---@field (\w+)/.exec(line)?.[1];
    if (field) fields.push(field);
  }
  return [...parents.flatMap((parent) => classFields(text, parent.trim())), ...fields].sort();
}

/** The values of a `---@alias` union, with those of the aliases it names. */
export function aliasValues(text: string, aliasName: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`---@alias ${aliasName}`);
  if (start < 0) throw new Error(`no ---@alias ${aliasName}`);
  const values: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const member = /^---\| (?:'([^']+)'|(\w+))/.exec(line);
    if (!member) break;
    values.push(...(member[1] !== undefined ? [member[1]] : aliasValues(text, member[2] ?? '')));
  }
  return values.sort();
}
