import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startBridgeClient } from '../../client/bridge-client.js';
import { OFF_DUTY } from '../../server/duty/duty-state.js';
import { registerServerExports } from '../../server/exports/register-exports.js';
import { createServerExports } from '../../server/exports/server-exports.js';
import { playerDutyOf } from '../../server/state/duty-state-bag.js';
import { DUTY_STATE_BAG_KEY, PUBLIC_EVENTS } from '../../shared/events.js';
import { LuaModule } from '../../sim/index.js';
import { createFakeClientPort } from '../client/fake-client-port.js';

// The LuaLS definitions Lua resources add to their workspace.library. The names they must cover come from the
// bridge's code: the export registries of both sides, PUBLIC_EVENTS and what the state bag holds.
const LUA_TYPES = join(import.meta.dirname, '..', '..', 'types', 'lua');
const metaFiles = readdirSync(LUA_TYPES).filter((name) => name.endsWith('.lua'));
const source = (name: string) => readFileSync(join(LUA_TYPES, name), 'utf8');

type JsExport = (...args: never[]) => unknown;

function serverExportRegistry(): Map<string, JsExport> {
  const registered = new Map<string, JsExport>();
  registerServerExports({
    port: { registerExport: (name, fn) => registered.set(name, fn) },
    // The exports reach these only when called; registering them touches none.
    duty: {} as never,
    players: {} as never,
    profiles: {} as never,
    messages: {} as never,
  });
  return registered;
}

function clientExportRegistry(): Map<string, JsExport> {
  const registered = new Map<string, JsExport>();
  const { port } = createFakeClientPort();
  startBridgeClient({ ...port, registerExport: (name, fn) => registered.set(name, fn) });
  return registered;
}

/** Runs the meta files in a fresh Lua state with `exports` as a plain table, then returns what `probe` returns. */
function runInLua(lua: LuaModule, files: string[], probe: string): string {
  const L = lua.newState();
  try {
    for (const chunk of ['exports = {}', ...files.map(source), probe]) {
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
function declaredExports(lua: LuaModule, files: string[]): Map<string, string[]> {
  const declared = runInLua(lua, files, DECLARED_EXPORTS);
  return new Map(
    declared.split(';').map((entry) => {
      const [, name = '', params = ''] = /^(\w+)\((.*)\)$/.exec(entry) ?? [];
      return [name, params.split(',')];
    }),
  );
}

/** The fields of a `---@class`, with those of the classes it extends. */
function classFields(text: string, className: string): string[] {
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

describe('the LuaLS definitions in types/lua', () => {
  let lua: LuaModule;
  beforeAll(async () => {
    lua = await LuaModule.open();
  });

  it('are shared.lua, client.lua and server.lua, each a ---@meta file', () => {
    expect(metaFiles.sort()).toEqual(['client.lua', 'server.lua', 'shared.lua']);
    for (const name of metaFiles) expect(source(name).startsWith('---@meta\n'), name).toBe(true);
  });

  it('parse and run as Lua 5.4 in the simulator, and the check refuses a file that does not', () => {
    for (const name of metaFiles) {
      expect(() => runInLua(lua, ['shared.lua', name], 'return "ran"'), name).not.toThrow();
    }
    expect(() => runInLua(lua, [], 'function exports.bridge:Broken( end')).toThrow(/expected/);
  });

  it('declare every server export the bridge registers, as a method taking the same arguments', () => {
    const registry = serverExportRegistry();
    const declared = declaredExports(lua, ['shared.lua', 'server.lua']);
    expect([...declared.keys()].sort()).toEqual([...registry.keys()].sort());
    for (const [name, fn] of registry) {
      // A method: LuaLS then completes exports.bridge:Name(...) and flags a dot call that would lose an argument.
      expect(declared.get(name)?.[0], name).toBe('self');
      expect(declared.get(name)?.slice(1), name).toHaveLength(fn.length);
    }
  });

  it('declare every client export the bridge registers, as a method taking the same arguments', () => {
    const registry = clientExportRegistry();
    const declared = declaredExports(lua, ['shared.lua', 'client.lua']);
    expect([...declared.keys()].sort()).toEqual([...registry.keys()].sort());
    for (const [name, fn] of registry) {
      expect(declared.get(name)?.[0], name).toBe('self');
      expect(declared.get(name)?.slice(1), name).toHaveLength(fn.length);
    }
  });

  it('name every public event on its side with how to listen, and no event the bridge does not fire', () => {
    const events = Object.values(PUBLIC_EVENTS);
    const sides = [
      { file: 'server.lua', prefix: 'bridge:server:', listen: 'AddEventHandler', alias: 'BridgeServerEvent' },
      { file: 'client.lua', prefix: 'bridge:client:', listen: 'RegisterNetEvent', alias: 'BridgeClientEvent' },
    ];
    for (const { file, prefix, listen, alias } of sides) {
      const text = source(file);
      const sideEvents = events.filter((event) => event.startsWith(prefix));
      expect(sideEvents.length, prefix).toBeGreaterThan(0);
      const aliasBlock = text.slice(text.indexOf(`---@alias ${alias}\n`)).split('\n\n')[0] ?? '';
      for (const event of sideEvents) {
        expect(text, event).toContain(`---${listen}('${event}', function(`);
        expect(aliasBlock, event).toContain(`---| '${event}'`);
      }
    }
    const named = metaFiles.flatMap((name) => source(name).match(/bridge:(server|client|internal):\w+/g) ?? []);
    expect(new Set(named)).toEqual(new Set(events));
  });

  it('describe the bridge:duty state bag with the fields the bridge writes there', () => {
    const shared = source('shared.lua');
    expect(shared).toContain(`Player(source).state['${DUTY_STATE_BAG_KEY}']`);
    expect(shared).toContain(`LocalPlayer.state['${DUTY_STATE_BAG_KEY}']`);
    expect(classFields(shared, 'BridgeDutyStateBag')).toEqual(Object.keys(playerDutyOf(OFF_DUTY)).sort());
  });

  it('describe an entry of GetOnDutyPlayers with the fields the server export returns', () => {
    const onDuty = { onDuty: true, departmentId: 1, departmentSlug: 'lspd', rankId: 2, since: 1 };
    const serverExports = createServerExports({
      dutyState: () => onDuty,
      onDutyPlayers: () => [[7, onDuty]],
      isKnownPlayer: () => true,
      cachedProfile: () => undefined,
      setDuty: () => Promise.reject(new Error('not called')),
      takeOffDuty: () => Promise.reject(new Error('not called')),
      refresh: () => Promise.reject(new Error('not called')),
    });
    const [entry] = serverExports.GetOnDutyPlayers();
    const both = `${source('shared.lua')}\n${source('server.lua')}`;
    expect(classFields(both, 'BridgeOnDutyPlayer')).toEqual(Object.keys(entry ?? {}).sort());
  });
});
