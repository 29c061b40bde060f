import { beforeAll, describe, expect, it } from 'vitest';
import { startBridgeClient } from '../../client/bridge-client.js';
import { OFF_DUTY } from '../../server/duty/duty-model.js';
import { playerDutyOf } from '../../server/edge/duty-state-bag.js';
import { createServerExports } from '../../server/edge/server-exports.js';
import {
  type DeptDataPayload,
  DUTY_STATE_BAG_KEY,
  type DutyErrorCode,
  type DutyOutcome,
  type OffDutyPayload,
  type OffDutyReason,
  ON_DUTY_COUNT_KEY,
  type PlayerDepartments,
  type ProfileErrorCode,
  type ProfilePayload,
  PUBLIC_EVENTS,
} from '../../shared/events.js';
import { LuaModule } from '../../sim/index.js';
import { createFakeClientPort } from '../client/fake-client-port.js';
import { clientExportRegistry, serverExportRegistry } from './support/export-registries.js';
import { aliasValues, classFields, declaredExports, metaFiles, runInLua, source } from './support/lua-meta.js';

// The LuaLS definitions Lua resources add to their workspace.library (types/lua). The names they must cover come
// from the bridge's code: the export registries of both sides, PUBLIC_EVENTS, shared/events.ts and what the state
// bag holds.

// Every key of every member of a union type: the payloads are unions of an ok and a failed shape.
type KeysOf<T> = T extends unknown ? keyof T : never;
// The names a TS type has, as a list the compiler holds to it: `satisfies` refuses a missing or an extra one.
const keysOf = <T extends string>(names: Record<T, true>): string[] => Object.keys(names).sort();

const PAYLOAD_CLASSES = {
  BridgeProfilePayload: keysOf<KeysOf<ProfilePayload>>({
    ok: true,
    chatId: true,
    departments: true,
    fetchedAt: true,
    error: true,
    message: true,
  }),
  BridgeDeptDataPayload: keysOf<keyof DeptDataPayload>({
    departmentId: true,
    slug: true,
    name: true,
    rank: true,
    data: true,
    resumed: true,
  }),
  BridgeOffDutyPayload: keysOf<keyof OffDutyPayload>({ departmentId: true, reason: true }),
  BridgeDutyOutcome: keysOf<KeysOf<DutyOutcome>>({
    ok: true,
    changed: true,
    onDuty: true,
    departmentId: true,
    rankId: true,
    since: true,
    error: true,
    message: true,
  }),
  BridgePlayerDepartments: keysOf<keyof PlayerDepartments>({ ok: true, departments: true, error: true }),
};

const UNIONS = {
  BridgeProfileErrorCode: keysOf<ProfileErrorCode>({
    not_configured: true,
    no_identifier: true,
    malformed_identifier: true,
    not_registered: true,
    unauthorized: true,
    panel_unavailable: true,
  }),
  BridgeOffDutyReason: keysOf<OffDutyReason>({
    request: true,
    department_removed: true,
    account_removed: true,
    resource_stop: true,
    admin: true,
    replaced: true,
    superseded: true,
    server_shutdown: true,
    kicked: true,
    banned: true,
  }),
  BridgeDutyErrorCode: keysOf<DutyErrorCode>({
    not_configured: true,
    no_departments: true,
    no_department_selected: true,
    not_member: true,
    profile_unavailable: true,
    panel_refused: true,
    panel_unavailable: true,
    too_many_requests: true,
    invalid_request: true,
  }),
};

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

  it('declare every global they use, so they check clean on their own (no undefined global exports)', () => {
    // LuaLS reads the meta files as code: a global they read but never assign is flagged in every file that uses it.
    expect(runInLua(lua, ['shared.lua'], 'return type(exports) .. " " .. type(exports.bridge)')).toBe('table table');
    for (const name of metaFiles) {
      expect(() => runInLua(lua, ['shared.lua', name], 'return "ran"'), name).not.toThrow();
    }
    expect(() => runInLua(lua, [], 'return exports.bridge')).toThrow(/undefined global 'exports'/);
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

  it('describe the on-duty counts in GlobalState with the key the bridge sets and a robbery script one-liner', () => {
    const shared = source('shared.lua');
    expect(shared).toContain(`local police = (GlobalState['${ON_DUTY_COUNT_KEY}'] or {}).lspd or 0`);
    expect(shared).toContain(`AddStateBagChangeHandler('${ON_DUTY_COUNT_KEY}', 'global',`);
    expect(classFields(shared, 'BridgeOnDutyCount')).toEqual(['total']);
  });

  it('describe an entry of GetOnDutyPlayers with the fields the server export returns', () => {
    const onDuty = {
      onDuty: true,
      departmentId: 1,
      departmentSlug: 'lspd',
      departmentName: 'Los Santos Police Department',
      rankId: 2,
      since: 1,
    };
    const serverExports = createServerExports({
      dutyState: () => onDuty,
      onDutyPlayers: () => [[7, onDuty]],
      isKnownPlayer: () => true,
      cachedProfile: () => undefined,
      setDuty: () => Promise.reject(new Error('not called')),
      takeOffDuty: () => Promise.reject(new Error('not called')),
      refresh: () => Promise.reject(new Error('not called')),
      communityCount: () => 0,
    });
    const [entry] = serverExports.GetOnDutyPlayers();
    const both = `${source('shared.lua')}\n${source('server.lua')}`;
    expect(classFields(both, 'BridgeOnDutyPlayer')).toEqual(Object.keys(entry ?? {}).sort());
  });

  it('describe the event payloads and export results with the fields shared/events.ts gives them', () => {
    const all = metaFiles.map(source).join('\n');
    for (const [className, fields] of Object.entries(PAYLOAD_CLASSES)) {
      expect(classFields(all, className), className).toEqual(fields);
    }
  });

  it('list every reason and error code shared/events.ts has', () => {
    const all = metaFiles.map(source).join('\n');
    for (const [aliasName, values] of Object.entries(UNIONS)) {
      expect(aliasValues(all, aliasName), aliasName).toEqual(values);
    }
  });

  it('describe GetDutyOptions() and its departments with the fields the client export returns', () => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    const loading = fake.call<object>('GetDutyOptions');
    fake.fromServer(PUBLIC_EVENTS.profile, {
      ok: true,
      chatId: '284619375016482817',
      fetchedAt: 1,
      departments: [{ id: 1, slug: 'lspd', name: 'Los Santos Police Department', rank: { id: 2, name: 'Sergeant' } }],
    } satisfies ProfilePayload);
    const loaded = fake.call<{ departments: object[] }>('GetDutyOptions');
    const client = `${source('shared.lua')}\n${source('client.lua')}`;
    expect(classFields(client, 'BridgeDutyOptions')).toEqual(
      [...new Set([...Object.keys(loading), ...Object.keys(loaded)])].sort(),
    );
    expect(classFields(client, 'BridgeDutyOptionDepartment')).toEqual(Object.keys(loaded.departments[0] ?? {}).sort());
  });
});
