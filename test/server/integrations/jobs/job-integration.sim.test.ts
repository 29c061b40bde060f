import { describe, expect, it } from 'vitest';
import { BCSO, LSPD, offDuty, onDuty } from '../support/duty-changes.js';
import { useSimIntegrations } from '../support/sim-integrations.js';
import { STUB_RESOURCES } from '../support/stub-resources.js';

// What the job integration does whatever the framework, against the stub resources in the simulator.
describe('the job framework integration', () => {
  const { open, world } = useSimIntegrations();

  const esxJob = (src: number) => world().stub('es_extended').job(src);

  describe('a framework that is configured but not started', () => {
    it('gives one clear warning, not one per player, and calls nothing', async () => {
      const w = await open([STUB_RESOURCES.qbcore], { JobFramework: 'esx' });
      w.stub('qb-core').loadPlayer(3, 'QBC1');
      for (const src of [3, 4, 5]) {
        w.bridge.change(onDuty(src, LSPD, LSPD.officer));
        w.bridge.change(offDuty(src));
      }
      expect(w.warnings()).toEqual([
        "WARN: Config.Integrations.JobFramework is 'esx', but es_extended is missing: jobs are not changed until it is started",
      ]);
      expect(w.stub('qb-core').calls()).toEqual([]);
    });

    it('starts working once the framework runs, and warns again if it goes away', async () => {
      const w = await open([{ ...STUB_RESOURCES.esx, start: false }], { JobFramework: 'esx' });
      w.bridge.change(onDuty(1, LSPD, LSPD.officer));
      await w.sim.startResource('es_extended');
      w.stub('es_extended').loadPlayer(2, 'char1:2');
      w.bridge.change(onDuty(2, LSPD, LSPD.officer));
      expect(esxJob(2)).toEqual({ name: 'lspd', grade: 0, onDuty: true });
      expect(w.lines).toContain('INFO: job framework integration: using ESX (es_extended)');

      await w.sim.stopResource('es_extended');
      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      w.bridge.change(onDuty(4, LSPD, LSPD.officer));
      expect(w.warnings()).toHaveLength(2);
      expect(w.warnings()[1]).toContain('es_extended is stopped');
    });

    it('keeps what it gave a player when the framework stopped before they went off duty, and gives their own back when it loads them again', async () => {
      const w = await open([STUB_RESOURCES.esx], { JobFramework: 'esx' });
      w.stub('es_extended').loadPlayer(3, 'char1:3');
      w.stub('es_extended').RunStaticPlayerMethod(3, 'setJob', 'mechanic', 1, false);
      w.stub('es_extended').savePlayers();
      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      w.stub('es_extended').savePlayers();
      await w.sim.stopResource('es_extended');
      w.bridge.change(offDuty(3));
      expect(w.warnings()).toEqual([]);

      await w.sim.startResource('es_extended');
      await w.sim.tick(1);
      w.stub('es_extended').loadPlayer(3, 'char1:3');
      expect(esxJob(3)).toEqual({ name: 'mechanic', grade: 1, onDuty: false });
    });
  });

  describe("'auto'", () => {
    it('picks qbx_core before qb-core (Qbox also provides qb-core)', async () => {
      const w = await open([STUB_RESOURCES.qbcore, STUB_RESOURCES.qbox], { JobFramework: 'auto' });
      w.stub('qb-core').loadPlayer(3, 'CID3');
      w.stub('qbx_core').loadPlayer(3, 'CID3');
      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      expect(w.stub('qbx_core').job(3)).toMatchObject({ name: 'lspd' });
      expect(w.stub('qb-core').job(3)).toMatchObject({ name: 'unemployed' });
    });

    it('picks the one framework that is started', async () => {
      const w = await open([STUB_RESOURCES.esx], { JobFramework: 'auto' });
      w.stub('es_extended').loadPlayer(3, 'char1:3');
      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      expect(esxJob(3)).toMatchObject({ name: 'lspd' });
    });

    it('names every framework it looked for when none is started', async () => {
      const w = await open([], { JobFramework: 'auto' });
      w.bridge.change(onDuty(3, LSPD, LSPD.officer));
      w.bridge.change(onDuty(4, LSPD, LSPD.officer));
      expect(w.warnings()).toEqual([
        "WARN: Config.Integrations.JobFramework is 'auto', but none of qbx_core, qb-core, es_extended, ox_core is started: jobs are not changed until one is",
      ]);
    });
  });

  it('changes nothing off duty for a player it gave nothing', async () => {
    const w = await open([STUB_RESOURCES.esx], { JobFramework: 'esx' });
    w.stub('es_extended').loadPlayer(3, 'char1:3');
    w.stub('es_extended').RunStaticPlayerMethod(3, 'setJob', 'mechanic', 0, true);
    const calls = (w.stub('es_extended').calls() as unknown[]).length;
    w.bridge.change(offDuty(3));
    expect(esxJob(3)).toEqual({ name: 'mechanic', grade: 0, onDuty: true });
    expect(w.stub('es_extended').calls()).toHaveLength(calls);
  });

  it('follows a new rank with its grade, and calls nothing when the grade stays', async () => {
    const w = await open([STUB_RESOURCES.esx], {
      JobFramework: 'esx',
      DepartmentJobs: {
        lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 1, [LSPD.lieutenant]: 3 } },
      },
    });
    w.stub('es_extended').loadPlayer(3, 'char1:3');
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    expect(w.stub('es_extended').calls()).toEqual([
      { fn: 'setJob', src: 3, name: 'police', grade: 1, gradeType: 'integer', onDuty: true },
    ]);
    w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
    expect(esxJob(3)).toEqual({ name: 'police', grade: 3, onDuty: true });
  });

  it('gives a dropped player their own back before the framework saves them, whichever hears of the drop first', async () => {
    const w = await open([STUB_RESOURCES.esx], { JobFramework: 'esx' });
    for (const src of [3, 4]) w.stub('es_extended').loadPlayer(src, `char1:${src}`);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(onDuty(4, LSPD, LSPD.officer));

    w.drop(3, 'es_extended', 'bridge');
    expect(w.stub('es_extended').stored('char1:3')).toMatchObject({ name: 'unemployed' });
    w.drop(4, 'es_extended', 'framework');
    expect(w.stub('es_extended').stored('char1:4')).toMatchObject({ name: 'unemployed' });
    expect(w.warnings()).toEqual([]);
    expect(w.store.keys('job-given:')).toEqual([]);
  });

  it('gives every player their own back when the bridge stops, at once (a stopping resource gets no later tick)', async () => {
    const w = await open([STUB_RESOURCES.qbox], { JobFramework: 'qbox' });
    w.stub('qbx_core').loadPlayer(1, 'CID1');
    w.stub('qbx_core').loadPlayer(2, 'CID2');
    w.bridge.change(onDuty(1, LSPD, LSPD.officer));
    w.bridge.change(onDuty(2, BCSO, BCSO.deputy));
    w.bridge.change(offDuty(1, 'resource_stop'));
    w.bridge.change(offDuty(2, 'resource_stop'));
    expect([w.stub('qbx_core').job(1), w.stub('qbx_core').job(2)]).toEqual([
      { name: 'unemployed', grade: 0, onduty: true },
      { name: 'unemployed', grade: 0, onduty: true },
    ]);
    expect([w.stub('qbx_core').jobs(1), w.stub('qbx_core').jobs(2)]).toEqual([[], []]);
  });

  it('forgets a dropped player, so a new player with the same id keeps their job', async () => {
    const w = await open([STUB_RESOURCES.esx], { JobFramework: 'esx' });
    w.stub('es_extended').loadPlayer(3, 'char1:3');
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.integrations.playerDropped(3);
    w.stub('es_extended').loadPlayer(3, 'char1:other');
    w.stub('es_extended').RunStaticPlayerMethod(3, 'setJob', 'mechanic', 0, true);
    w.bridge.change(offDuty(3));
    expect(esxJob(3)).toEqual({ name: 'mechanic', grade: 0, onDuty: true });
  });

  it('gives the first character their own back as ESX unloads them (a character switch), and leaves the next one alone', async () => {
    const w = await open([STUB_RESOURCES.esx], { JobFramework: 'esx' });
    w.stub('es_extended').loadPlayer(3, 'char1:3');
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    // The player switches character (esx_multicharacter: esx:playerLogout) while on duty.
    w.stub('es_extended').dropPlayer(3);
    expect(w.stub('es_extended').stored('char1:3')).toMatchObject({ name: 'unemployed' });
    w.stub('es_extended').loadPlayer(3, 'char2:3');
    w.bridge.change(offDuty(3));
    expect(esxJob(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
    w.stub('es_extended').dropPlayer(3);
    expect(w.stub('es_extended').stored('char1:3')).toMatchObject({ name: 'unemployed' });
    w.stub('es_extended').loadPlayer(3, 'char1:3');
    expect(esxJob(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
  });

  it('sets a kept record it cannot read aside, says so, and leaves the player as they are', async () => {
    const w = await open([STUB_RESOURCES.esx], { JobFramework: 'esx' });
    w.store.set('job-given:esx:char1:3', '{"framework":"esx","character":"char1:3","given":{"job":"lspd"}}');
    w.stub('es_extended').loadPlayer(3, 'char1:3');
    expect(w.store.get('job-given:esx:char1:3')).toBeNull();
    expect(w.store.get('job-given-set-aside:esx:char1:3')).not.toBeNull();
    expect(w.lines).toContainEqual(
      expect.stringMatching(
        /^ERROR: the kept job record of ESX character char1:3 could not be read \(given\.grade: .*\); it is set aside as job-given-set-aside:esx:char1:3$/,
      ),
    );
  });
});
