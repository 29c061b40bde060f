import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { STUB_RESOURCES } from '../integrations/support/stub-resources.js';
import { LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { luaMenuOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

type Call = Record<string, unknown>;

const FRAMEWORKS = [
  {
    framework: 'esx',
    stub: STUB_RESOURCES.esx,
    on: [{ fn: 'setJob', name: 'lspd', grade: 0, onDuty: true }],
    off: [{ fn: 'setJob', name: 'unemployed', grade: 0, onDuty: false }],
  },
  {
    framework: 'qbcore',
    stub: STUB_RESOURCES.qbcore,
    on: [
      { fn: 'SetJob', job: 'lspd', grade: 0 },
      { fn: 'SetJobDuty', onDuty: true },
    ],
    off: [{ fn: 'SetJob', job: 'unemployed', grade: 0 }],
  },
  {
    framework: 'qbox',
    stub: STUB_RESOURCES.qbox,
    on: [
      { fn: 'SetJob', job: 'lspd', grade: 0 },
      { fn: 'SetJobDuty', onDuty: true },
    ],
    off: [{ fn: 'SetJob', job: 'unemployed', grade: 0 }],
  },
  {
    framework: 'ox_core',
    stub: STUB_RESOURCES.oxCore,
    on: [{ fn: 'setGroup', name: 'lspd', grade: 1 }],
    off: [{ fn: 'setGroup', name: 'lspd', grade: 0 }],
  },
] as const;

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

  it.each(FRAMEWORKS)(
    '$framework: on duty the job becomes the department, off duty the fallback job',
    async (entry) => {
      world = await startWorld({
        config: `Config.Integrations.JobFramework = '${entry.framework}'`,
        resources: [entry.stub],
      });
      const stub = () => world.sim.exports[entry.stub.name] as { loadPlayer(src: number): void; calls(): Call[] };
      const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
      stub().loadPlayer(alex.id);
      const callsOf = (fns: readonly string[]) =>
        stub()
          .calls()
          .filter((call) => fns.includes(call.fn as string));
      const fns = [...new Set([...entry.on, ...entry.off].map((call) => call.fn))];

      await toggle(alex, true);
      await world.sim.until(() => callsOf(fns).length >= entry.on.length, 5000, 'the framework calls');
      expect(callsOf(fns)).toEqual(entry.on.map((call) => expect.objectContaining({ ...call, src: alex.id })));
      expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant]]);

      await toggle(alex, false);
      await world.sim.until(() => callsOf(fns).length >= entry.on.length + entry.off.length, 5000, 'the revert');
      expect(callsOf(fns).slice(entry.on.length)).toEqual(
        entry.off.map((call) => expect.objectContaining({ ...call, src: alex.id })),
      );
    },
  );

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
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[alex.id]]);
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
