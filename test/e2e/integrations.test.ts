import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import type { StubExports } from '../server/integrations/support/sim-integrations.js';
import { STUB_RESOURCES } from '../server/integrations/support/stub-resources.js';
import { luaMenuOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

type Call = Record<string, unknown>;

type Framework = {
  framework: string;
  stub: { dir: string; name: string };
  /** The framework's id of the character the test loads for the player. */
  character: string | number;
  on: (src: number, character: string | number) => Call[];
  off: (src: number, character: string | number) => Call[];
};

// A new character holds nothing: on duty the department's job, off duty what they had (unemployed, or no group).
const FRAMEWORKS: Framework[] = [
  {
    framework: 'esx',
    stub: STUB_RESOURCES.esx,
    character: 'char1:0123456789abcdef',
    on: (src) => [{ fn: 'setJob', src, name: 'lspd', grade: 0, gradeType: 'integer', onDuty: true }],
    off: (src) => [{ fn: 'setJob', src, name: 'unemployed', grade: 0, gradeType: 'integer', onDuty: false }],
  },
  {
    framework: 'qbcore',
    stub: STUB_RESOURCES.qbcore,
    character: 'QBC00001',
    on: (src) => [
      { fn: 'SetJob', src, job: 'lspd', grade: 0 },
      { fn: 'SetJobDuty', src, onDuty: true },
    ],
    off: (src) => [
      { fn: 'SetJob', src, job: 'unemployed', grade: 0 },
      { fn: 'SetJobDuty', src, onDuty: true },
    ],
  },
  {
    framework: 'qbox',
    stub: STUB_RESOURCES.qbox,
    character: 'QBX00001',
    on: (src, citizenid) => [
      { fn: 'AddPlayerToJob', citizenid, job: 'lspd', grade: 0 },
      { fn: 'SetPlayerPrimaryJob', citizenid, job: 'lspd' },
      { fn: 'SetJobDuty', src, onDuty: true },
    ],
    off: (src, citizenid) => [
      { fn: 'SetPlayerPrimaryJob', citizenid, job: 'unemployed' },
      { fn: 'RemovePlayerFromJob', citizenid, job: 'lspd' },
      { fn: 'SetJobDuty', src, onDuty: true },
    ],
  },
  {
    framework: 'ox_core',
    stub: STUB_RESOURCES.oxCore,
    character: 101,
    on: (src) => [
      { fn: 'setGroup', src, name: 'lspd', grade: 1 },
      { fn: 'setActiveGroup', src, name: 'lspd', temp: true },
    ],
    // Removing the group ends it being the active one; the character had no active group before.
    off: (src) => [{ fn: 'setGroup', src, name: 'lspd', grade: 0 }],
  },
];

type StubResource = Omit<StubExports, 'calls'> & { calls(): Call[] };

describe('job frameworks, end to end with a stub of each', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function toggle(player: SimPlayer, on: boolean) {
    const seen = () => (luaMenuOf(player).seen() as { outcomes: unknown[] }).outcomes.length;
    const before = seen();
    expect(on ? luaMenuOf(player).goOnDuty(1) : luaMenuOf(player).goOffDuty()).toBe(true);
    await world.sim.until(() => seen() > before, 10_000, 'the duty outcome');
    await world.sim.settle();
  }

  it.each(FRAMEWORKS)("$framework: on duty the department's job, off duty what the player had", async (entry) => {
    world = await startWorld({
      config: `Config.Integrations.JobFramework = '${entry.framework}'`,
      resources: [entry.stub],
    });
    const stub = () => world.sim.exports[entry.stub.name] as StubResource;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    stub().loadPlayer(alex.id, entry.character);
    const loaded = stub().calls().length;
    const calls = () => stub().calls().slice(loaded);
    const on = entry.on(alex.id, entry.character);
    const off = entry.off(alex.id, entry.character);

    await toggle(alex, true);
    await world.sim.until(() => calls().length >= on.length, 5000, 'the framework calls');
    expect(calls()).toEqual(on);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant, false]]);

    await toggle(alex, false);
    await world.sim.until(() => calls().length >= on.length + off.length, 5000, 'the framework calls');
    expect(calls().slice(on.length)).toEqual(off);
  });

  it("QBCore: the player's client hears QBCore:Client:SetDuty on and off duty, as from qb-core's own toggle", async () => {
    world = await startWorld({
      config: "Config.Integrations.JobFramework = 'qbcore'",
      resources: [STUB_RESOURCES.qbcore],
    });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    (world.sim.exports['qb-core'] as StubResource).loadPlayer(alex.id, 'QBC00001');
    await toggle(alex, true);
    await toggle(alex, false);
    expect(world.eventArgs('QBCore:Client:SetDuty', alex)).toEqual([[true], [false]]);
    expect(world.eventArgs('QBCore:Server:SetDuty')).toEqual([
      [alex.id, true],
      [alex.id, false],
    ]);
  });

  it('Qbox: a mechanic whose server dies while they are on duty has their job, and only theirs, the next time they play', async () => {
    world = await startWorld({
      config: "Config.Integrations.JobFramework = 'qbox'",
      resources: [STUB_RESOURCES.qbox],
      moreConvars: { 'qbx:max_jobs_per_player': '2' },
      clock: 'virtual',
    });
    const qbox = () => world.sim.exports.qbx_core as StubResource;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    qbox().loadPlayer(alex.id, 'QBX00001');
    qbox().AddPlayerToJob('QBX00001', 'mechanic', 1);
    qbox().SetPlayerPrimaryJob('QBX00001', 'mechanic');
    const before = qbox().stored('QBX00001');
    expect(before).toEqual({ job: { name: 'mechanic', grade: 1 }, jobs: { mechanic: 1 } });

    await toggle(alex, true);
    expect(qbox().stored('QBX00001')).toEqual({ job: { name: 'lspd', grade: 0 }, jobs: { mechanic: 1, lspd: 0 } });

    await world.sim.kill();
    await world.sim.restart();
    const again = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    qbox().loadPlayer(again.id, 'QBX00001');
    await world.sim.settle();
    expect(qbox().stored('QBX00001')).toEqual(before);
    expect(qbox().job(again.id)).toMatchObject({ name: 'mechanic', grade: 1 });
  });

  it('ox_core: a restart of the bridge while a character is on duty gives them their active group back once it is up again', async () => {
    world = await startWorld({
      config: "Config.Integrations.JobFramework = 'ox_core'",
      resources: [STUB_RESOURCES.oxCore],
      clock: 'virtual',
    });
    const ox = () => world.sim.exports.ox_core as StubResource;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    ox().loadPlayer(alex.id, 101);
    await world.sim.resolve(ox().CallPlayer(alex.id, 'setGroup', 'mechanic', 2) as Promise<unknown>);
    ox().CallPlayer(alex.id, 'setActiveGroup', 'mechanic');
    await toggle(alex, true);
    await world.sim.until(() => ox().activeGroup(alex.id) === 'lspd', 5000, 'the department to be the active group');

    // ox_core answers from its database, after the stopping bridge is gone: the bridge leaves it to its next start.
    await world.sim.restartResource('bridge');
    await world.sim.until(() => ox().activeGroup(alex.id) === 'mechanic', 5000, 'the active group back');
    expect(ox().groups(alex.id)).toEqual({ mechanic: 2 });
    expect(ox().stored(101)).toEqual([{ name: 'mechanic', grade: 2, isActive: true }]);
  });

  it('warns once when the configured framework is not running, and duty still works', async () => {
    world = await startWorld({ config: "Config.Integrations.JobFramework = 'esx'" });
    const alex = await world.join(TWO_DEPARTMENTS);
    const jamie = await world.join('1039284756102938475');
    await toggle(alex, true);
    await toggle(jamie, true);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toHaveLength(2);
    expect(world.sim.console.filter((line) => line.text.includes('es_extended')).length).toBe(1);
  });
});

describe('rcore_police, end to end with a stub', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const rcore = () =>
    world.sim.exports.rcore_police as {
      toggleDuty(src: number): void;
      isInService(src: number): boolean;
      calls(): Call[];
    };

  it('passes the bridge duty on, and an off duty inside rcore_police ends the duty in the bridge and the panel', async () => {
    world = await startWorld({
      config: 'Config.Integrations.RcorePolice = true',
      resources: [STUB_RESOURCES.rcorePolice],
    });
    const alex = await world.join(TWO_DEPARTMENTS);
    expect(luaMenuOf(alex).goOnDuty(1)).toBe(true);
    await world.sim.until(() => rcore().isInService(alex.id), 10_000, 'rcore_police to be told');
    expect(rcore().calls()).toEqual([
      { event: 'setPlayerDuty', playerId: alex.id, state: true },
      { event: 'SetDuty', playerId: alex.id, state: true },
    ]);

    rcore().toggleDuty(alex.id);
    await world.sim.until(() => world.requests().includes('POST /api/leo/duty/off 200'), 10_000, 'the off call');
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[alex.id, 'request', false]]);
    await world.sim.until(() => !luaMenuOf(alex).isOnDuty(), 5000, 'the client to hear of it');
    expect(rcore().calls()).toHaveLength(3);
  });

  it('sets an on duty made inside rcore_police back, since going on duty needs a department', async () => {
    world = await startWorld({
      config: 'Config.Integrations.RcorePolice = true',
      resources: [STUB_RESOURCES.rcorePolice],
    });
    const alex = await world.join(TWO_DEPARTMENTS);
    rcore().toggleDuty(alex.id);
    await world.sim.settle();
    expect(rcore().isInService(alex.id)).toBe(false);
    expect(world.requests().filter((request) => request.startsWith('POST'))).toEqual([]);
  });
});
