import { beforeEach, describe, expect, it } from 'vitest';
import { BCSO, LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { fakeEsx } from './support/fake-frameworks.js';
import { jobSetup } from './support/job-setup.js';

describe('ESX', () => {
  it("on duty the job becomes the department's slug at grade 0 with ESX's duty flag on; off duty unemployed", () => {
    const { resources, jobs } = jobSetup('esx');
    const esx = fakeEsx(resources);
    esx.load(3, 'mechanic', 0);

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.sergeant));
    expect(resources.callsTo('es_extended', 'RunStaticPlayerMethod')).toEqual([
      [3, 'setJob', 'lspd', 0, true],
      [3, 'getJob'],
    ]);
    expect(esx.job(3)).toEqual({ name: 'lspd', grade: 0, onDuty: true });

    jobs.dutyChanged(offDuty(3));
    expect(resources.callsTo('es_extended', 'RunStaticPlayerMethod').slice(2)).toEqual([
      [3, 'setJob', 'unemployed', 0, false],
      [3, 'getJob'],
    ]);
    expect(esx.job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
  });

  it('takes the job and the grade of the rank from DepartmentJobs, and the configured fallback off duty', () => {
    const { resources, jobs } = jobSetup('esx', {
      departmentJobs: { lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 2 } } },
      fallbackJob: 'mechanic',
    });
    const esx = fakeEsx(resources);
    esx.load(3);

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.sergeant));
    expect(esx.job(3)).toEqual({ name: 'police', grade: 2, onDuty: true });
    jobs.dutyChanged(offDuty(3));
    expect(esx.job(3)).toEqual({ name: 'mechanic', grade: 0, onDuty: false });
  });

  describe('an ESX without RunStaticPlayerMethod (before 2025-01)', () => {
    it('uses the xPlayer from getSharedObject().GetPlayerFromId, copying the shared object only once', () => {
      const { resources, jobs } = jobSetup('esx');
      const esx = fakeEsx(resources, { legacy: true });
      esx.load(3);
      esx.load(4);

      jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
      jobs.dutyChanged(onDuty(4, BCSO, BCSO.deputy));
      jobs.dutyChanged(offDuty(3));

      expect(esx.job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
      expect(esx.job(4)).toEqual({ name: 'bcso', grade: 0, onDuty: true });
      expect(resources.callsTo('es_extended')).toEqual([['getSharedObject']]);
    });

    it('fetches GetPlayerFromId again when the kept reference died with a restart of es_extended', () => {
      const { resources, jobs, warnings } = jobSetup('esx');
      fakeEsx(resources, { legacy: true }).load(3);
      jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));

      resources.stop('es_extended');
      const restarted = fakeEsx(resources, { legacy: true });
      restarted.load(3, 'lspd', 0);
      // The reference from before the restart is dead: calling it fails as FiveM's "reference wasn't valid".
      jobs.dutyChanged(offDuty(3));

      expect(restarted.job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
      expect(resources.callsTo('es_extended')).toEqual([['getSharedObject'], ['getSharedObject']]);
      expect(warnings()).toEqual([]);
    });
  });

  describe('when ESX does not take the job', () => {
    let setup: ReturnType<typeof jobSetup>;
    let esx: ReturnType<typeof fakeEsx>;
    beforeEach(() => {
      setup = jobSetup('esx', { departmentJobs: { lspd: { Job: 'lspd', Grades: { [LSPD.lieutenant]: 9 } } } });
      esx = fakeEsx(setup.resources);
    });

    it('warns once for every player, naming the job and grade, then logs at debug level', () => {
      for (const src of [3, 4, 5]) {
        esx.load(src, 'mechanic');
        setup.jobs.dutyChanged(onDuty(src, LSPD, LSPD.lieutenant));
      }
      expect(setup.warnings()).toEqual([
        expect.stringContaining('ESX could not give player 3 the job lspd (grade 9): ESX kept the job mechanic'),
      ]);
      expect(setup.lines.filter((line) => line.includes('could not give player')).length).toBe(3);
    });

    it("leaves the player's own job alone off duty, since the bridge never changed it", () => {
      esx.load(3, 'mechanic');
      setup.jobs.dutyChanged(onDuty(3, LSPD, LSPD.lieutenant));
      setup.jobs.dutyChanged(offDuty(3));
      expect(esx.job(3)).toEqual({ name: 'mechanic', grade: 0, onDuty: false });
    });

    it('tells a player without a loaded character apart from an unknown job', () => {
      setup.jobs.dutyChanged(onDuty(7, LSPD, LSPD.officer));
      expect(setup.warnings()).toEqual([expect.stringContaining('ESX has no player with this id')]);
    });
  });
});
