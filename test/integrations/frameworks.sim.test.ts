import { afterEach, describe, expect, it } from 'vitest';
import { LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { type SimIntegrations, simIntegrations } from './support/sim-integrations.js';
import { STUB_RESOURCES } from './support/stub-resources.js';

// Each framework's stub resource runs in the simulator's Lua runtime and records the calls in its own shape; the
// job integration reaches it through a ResourcePort over the simulator, every call crossing msgpack as in FXServer.
const POLICE = { lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 2 } } };

describe('the job framework integration against stub resources in the simulator', () => {
  let world: SimIntegrations | undefined;
  afterEach(async () => {
    world?.sim.assertNoErrors();
    await world?.sim.stop();
    world = undefined;
  });

  describe('ESX', () => {
    it('calls xPlayer.setJob(name, grade, onDuty) through RunStaticPlayerMethod, the grade an integer', async () => {
      world = await simIntegrations([STUB_RESOURCES.esx], { JobFramework: 'esx', DepartmentJobs: POLICE });
      const esx = world.stub('es_extended');
      esx.loadPlayer(3, 'mechanic', 0);

      world.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
      expect(esx.job(3)).toEqual({ name: 'police', grade: 2, onDuty: true });
      world.bridge.change(offDuty(3));
      expect(esx.job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });

      expect(esx.calls()).toEqual([
        { fn: 'setJob', src: 3, name: 'police', grade: 2, gradeType: 'integer', onDuty: true },
        { fn: 'setJob', src: 3, name: 'unemployed', grade: 0, gradeType: 'integer', onDuty: false },
      ]);
      expect(world.warnings()).toEqual([]);
    });

    it('without RunStaticPlayerMethod, calls setJob on the xPlayer from getSharedObject().GetPlayerFromId', async () => {
      world = await simIntegrations([STUB_RESOURCES.esx], { JobFramework: 'esx' }, { esx_stub_legacy: 'true' });
      const esx = world.stub('es_extended');
      esx.loadPlayer(3);
      esx.loadPlayer(4);

      world.bridge.change(onDuty(3, LSPD, LSPD.officer));
      world.bridge.change(onDuty(4, LSPD, LSPD.officer));
      world.bridge.change(offDuty(3));

      expect(esx.calls()).toEqual([
        { fn: 'getSharedObject' },
        { fn: 'setJob', src: 3, name: 'lspd', grade: 0, gradeType: 'integer', onDuty: true },
        { fn: 'setJob', src: 4, name: 'lspd', grade: 0, gradeType: 'integer', onDuty: true },
        { fn: 'setJob', src: 3, name: 'unemployed', grade: 0, gradeType: 'integer', onDuty: false },
      ]);
      expect(esx.job(4)).toEqual({ name: 'lspd', grade: 0, onDuty: true });
    });

    it('reads an invalid job back from getJob and warns once', async () => {
      world = await simIntegrations([STUB_RESOURCES.esx], { JobFramework: 'esx' });
      const esx = world.stub('es_extended');
      esx.loadPlayer(3, 'mechanic', 0);
      world.bridge.change(onDuty(3, { id: 9, slug: 'doj' }, 12));
      expect(esx.job(3)).toEqual({ name: 'mechanic', grade: 0, onDuty: false });
      expect(world.warnings()).toEqual([expect.stringContaining('ESX kept the job mechanic (grade 0)')]);
    });
  });

  describe('QBCore', () => {
    const EXPECTED = [
      { fn: 'SetJob', src: 3, job: 'police', grade: 2 },
      { fn: 'SetJobDuty', src: 3, onDuty: true },
      { fn: 'SetJob', src: 3, job: 'unemployed', grade: 0 },
    ];

    it('calls Player.Functions.SetJob and SetJobDuty on the player from the GetPlayer export', async () => {
      world = await simIntegrations([STUB_RESOURCES.qbcore], { JobFramework: 'qbcore', DepartmentJobs: POLICE });
      const qb = world.stub('qb-core');
      qb.loadPlayer(3);

      world.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
      expect(qb.job(3)).toEqual({ name: 'police', grade: 2, onduty: true });
      world.bridge.change(offDuty(3));
      expect(qb.job(3)).toEqual({ name: 'unemployed', grade: 0, onduty: true });
      expect(qb.calls()).toEqual(EXPECTED);
    });

    it("on a classic qb-core, gets the player from GetCoreObject({ 'Functions' }), asked once", async () => {
      world = await simIntegrations(
        [STUB_RESOURCES.qbcore],
        { JobFramework: 'qbcore', DepartmentJobs: POLICE },
        { qbcore_stub_classic: 'true' },
      );
      const qb = world.stub('qb-core');
      qb.loadPlayer(3);

      world.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
      world.bridge.change(offDuty(3));

      expect(qb.calls()).toEqual([{ fn: 'GetCoreObject', filters: ['Functions'] }, ...EXPECTED]);
    });
  });

  describe('Qbox', () => {
    it('calls exports.qbx_core:SetJob(src, job, grade) and SetJobDuty(src, true)', async () => {
      world = await simIntegrations([STUB_RESOURCES.qbox], { JobFramework: 'qbox', DepartmentJobs: POLICE });
      const qbox = world.stub('qbx_core');
      qbox.loadPlayer(3);

      world.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
      expect(qbox.job(3)).toEqual({ name: 'police', grade: 2, onduty: true });
      world.bridge.change(offDuty(3));
      expect(qbox.job(3)).toEqual({ name: 'unemployed', grade: 0, onduty: true });
      expect(qbox.calls()).toEqual([
        { fn: 'SetJob', src: 3, job: 'police', grade: 2 },
        { fn: 'SetJobDuty', src: 3, onDuty: true },
        { fn: 'SetJob', src: 3, job: 'unemployed', grade: 0 },
      ]);
    });

    it('reads `return false, { code, message }`, which arrives as an array, into the warning', async () => {
      world = await simIntegrations([STUB_RESOURCES.qbox], { JobFramework: 'qbox' });
      const qbox = world.stub('qbx_core');
      qbox.loadPlayer(3);
      qbox.failNextSetJob('max_jobs', 'player already has maximum amount of jobs allowed');

      world.bridge.change(onDuty(3, LSPD, LSPD.officer));

      expect(world.warnings()).toEqual([
        expect.stringContaining('qbx_core: max_jobs: player already has maximum amount of jobs allowed'),
      ]);
      expect(qbox.calls()).toEqual([{ fn: 'SetJob', src: 3, job: 'lspd', grade: 0 }]);
    });

    it('never makes SetJob fail inside qbx_core for a player it has not loaded', async () => {
      world = await simIntegrations([STUB_RESOURCES.qbox], { JobFramework: 'qbox' });
      world.bridge.change(onDuty(3, LSPD, LSPD.officer));
      expect(world.stub('qbx_core').calls()).toEqual([]);
      expect(world.warnings()).toEqual([expect.stringContaining('qbx_core has no player with this id')]);
    });
  });

  describe('ox_core', () => {
    it("awaits CallPlayer(src, 'setGroup', name, grade) and removes the group with grade 0", async () => {
      world = await simIntegrations([STUB_RESOURCES.oxCore], { JobFramework: 'ox_core', DepartmentJobs: POLICE });
      const ox = world.stub('ox_core');
      ox.loadPlayer(3);

      world.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
      world.bridge.change(offDuty(3));
      // The off duty call waits for the on duty one, which answers a frame later.
      expect(ox.calls()).toEqual([{ fn: 'setGroup', src: 3, name: 'police', grade: 2 }]);
      await world.sim.until(() => (ox.calls() as unknown[]).length === 2, 1000, 'the second setGroup');
      await world.sim.tick(2);

      expect(ox.calls()).toEqual([
        { fn: 'setGroup', src: 3, name: 'police', grade: 2 },
        { fn: 'setGroup', src: 3, name: 'police', grade: 0 },
      ]);
      expect(ox.groups(3)).toEqual([]); // an empty Lua table crosses msgpack as []
      expect(world.warnings()).toEqual([]);
    });

    it('warns about a player without a character (setGroup answers false)', async () => {
      world = await simIntegrations([STUB_RESOURCES.oxCore], { JobFramework: 'ox_core' });
      world.stub('ox_core').loadPlayer(3, true);
      world.bridge.change(onDuty(3, LSPD, LSPD.officer));
      await world.sim.until(() => world?.warnings().length === 1, 1000, 'the warning');
      expect(world.warnings()[0]).toContain('ox_core: the player has no character loaded');
    });
  });

  it("'auto' picks qbx_core when both it and qb-core are started", async () => {
    world = await simIntegrations([STUB_RESOURCES.qbcore, STUB_RESOURCES.qbox], { JobFramework: 'auto' });
    world.stub('qb-core').loadPlayer(3);
    world.stub('qbx_core').loadPlayer(3);
    world.bridge.change(onDuty(3, LSPD, LSPD.officer));
    expect(world.stub('qbx_core').calls()).toHaveLength(2);
    expect(world.stub('qb-core').calls()).toEqual([]);
  });

  it('warns once when the configured framework is not started, and calls nothing', async () => {
    world = await simIntegrations([STUB_RESOURCES.qbcore], { JobFramework: 'esx' });
    world.stub('qb-core').loadPlayer(3);
    world.bridge.change(onDuty(3, LSPD, LSPD.officer));
    world.bridge.change(onDuty(4, LSPD, LSPD.officer));
    expect(world.warnings()).toEqual([
      "WARN: Config.Integrations.JobFramework is 'esx', but es_extended is missing: jobs are not changed until it is started",
    ]);
    expect(world.stub('qb-core').calls()).toEqual([]);
  });
});
