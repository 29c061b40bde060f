import { describe, expect, it } from 'vitest';
import { BCSO, LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { fakeEsx, fakeQbCore, fakeQbox } from './support/fake-frameworks.js';
import { jobSetup } from './support/job-setup.js';

describe('the job framework integration', () => {
  describe('a framework that is configured but not started', () => {
    it('gives one clear warning, not one per player, and calls nothing', () => {
      const { resources, jobs, warnings } = jobSetup('esx');
      for (const src of [1, 2, 3]) {
        jobs.dutyChanged(onDuty(src, LSPD, LSPD.officer));
        jobs.dutyChanged(offDuty(src));
      }
      expect(warnings()).toEqual([
        "WARN: Config.Integrations.JobFramework is 'esx', but es_extended is missing: jobs are not changed until it is started",
      ]);
      expect(resources.exportCalls).toEqual([]);
    });

    it('starts working once the framework runs, and warns again if it goes away', () => {
      const { resources, jobs, warnings, lines } = jobSetup('esx');
      jobs.dutyChanged(onDuty(1, LSPD, LSPD.officer));
      const esx = fakeEsx(resources);
      esx.load(2);
      jobs.dutyChanged(onDuty(2, LSPD, LSPD.officer));
      expect(esx.job(2)?.name).toBe('lspd');
      expect(lines).toContain('INFO: job framework integration: using ESX (es_extended)');

      resources.stop('es_extended');
      jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
      jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer));
      expect(warnings()).toHaveLength(2);
      expect(warnings()[1]).toContain('es_extended is stopped');
    });
  });

  describe("'auto'", () => {
    it('picks qbx_core before qb-core (Qbox also provides qb-core)', () => {
      const { resources, jobs } = jobSetup('auto');
      const qb = fakeQbCore(resources);
      const qbox = fakeQbox(resources);
      qb.load(3);
      qbox.load(3);
      jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
      expect(qbox.job(3)?.name).toBe('lspd');
      expect(qb.job(3)?.name).toBe('unemployed');
    });

    it('picks the one framework that is started', () => {
      const { resources, jobs } = jobSetup('auto');
      const esx = fakeEsx(resources);
      esx.load(3);
      jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
      expect(esx.job(3)?.name).toBe('lspd');
    });

    it('names every framework it looked for when none is started', () => {
      const { jobs, warnings } = jobSetup('auto');
      jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
      jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer));
      expect(warnings()).toEqual([
        "WARN: Config.Integrations.JobFramework is 'auto', but none of qbx_core, qb-core, es_extended, ox_core is started: jobs are not changed until one is",
      ]);
    });
  });

  it('reverts only a job the bridge set: going off duty otherwise changes nothing', () => {
    const { resources, jobs } = jobSetup('esx');
    const esx = fakeEsx(resources);
    esx.load(3, 'mechanic');
    jobs.dutyChanged(offDuty(3));
    expect(esx.job(3)?.name).toBe('mechanic');
    expect(resources.exportCalls).toEqual([]);
  });

  it('gives the new department its job when a player switches while on duty, and reverts once', () => {
    const { resources, jobs } = jobSetup('esx');
    const esx = fakeEsx(resources);
    esx.load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(3, BCSO, BCSO.deputy));
    expect(esx.job(3)).toEqual({ name: 'bcso', grade: 0, onDuty: true });
    jobs.dutyChanged(offDuty(3));
    jobs.dutyChanged(offDuty(3));
    expect(esx.job(3)?.name).toBe('unemployed');
    expect(
      resources.callsTo('es_extended', 'RunStaticPlayerMethod').filter(([, method]) => method === 'setJob'),
    ).toHaveLength(3);
  });

  it('follows a new rank with its grade, and does not call the framework when the grade stays', () => {
    const { resources, jobs } = jobSetup('esx', {
      departmentJobs: {
        lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 1, [LSPD.lieutenant]: 3 } },
      },
    });
    const esx = fakeEsx(resources);
    esx.load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.sergeant));
    expect(resources.callsTo('es_extended', 'RunStaticPlayerMethod')).toHaveLength(2);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.lieutenant));
    expect(esx.job(3)).toEqual({ name: 'police', grade: 3, onDuty: true });
  });

  it('tries to revert the job of a dropped player, quietly when the framework already unloaded them', () => {
    const { resources, jobs, warnings, lines } = jobSetup('esx');
    const esx = fakeEsx(resources);
    esx.load(3);
    esx.load(4);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer));

    jobs.dutyChanged(offDuty(3, 'dropped'));
    expect(esx.job(3)?.name).toBe('unemployed');

    esx.players.delete(4);
    jobs.dutyChanged(offDuty(4, 'dropped'));
    expect(warnings()).toEqual([]);
    expect(lines).toContain(
      'DEBUG: ESX could not give player 4 the job unemployed (grade 0) back: ESX has no player with this id',
    );
  });

  it('reverts every job when the bridge stops, synchronously', () => {
    const { resources, jobs } = jobSetup('qbox');
    const qbox = fakeQbox(resources);
    qbox.load(1);
    qbox.load(2);
    jobs.dutyChanged(onDuty(1, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(2, BCSO, BCSO.deputy));
    jobs.dutyChanged(offDuty(1, 'resource_stop'));
    jobs.dutyChanged(offDuty(2, 'resource_stop'));
    expect([qbox.job(1)?.name, qbox.job(2)?.name]).toEqual(['unemployed', 'unemployed']);
  });

  it('leaves the job alone when the framework stopped between on and off duty', () => {
    const { resources, jobs, warnings } = jobSetup('esx');
    fakeEsx(resources).load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    resources.stop('es_extended');
    jobs.dutyChanged(offDuty(3));
    expect(resources.exportCalls).toHaveLength(2);
    expect(warnings()).toEqual([]);
  });

  it('forgets a dropped player, so a new player with the same id is not reverted', () => {
    const { resources, jobs } = jobSetup('esx');
    const esx = fakeEsx(resources);
    esx.load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.playerDropped?.(3);
    esx.load(3, 'mechanic');
    jobs.dutyChanged(offDuty(3));
    expect(esx.job(3)?.name).toBe('mechanic');
  });

  it('never throws into the bridge when a framework call fails, and says so once', () => {
    const { resources, jobs, warnings } = jobSetup('qbox');
    resources.start('qbx_core', {
      GetPlayer: () => ({}),
      SetJob: () => {
        throw new Error('boom');
      },
    });
    expect(() => jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer))).not.toThrow();
    expect(() => jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer))).not.toThrow();
    expect(warnings()).toEqual([
      expect.stringContaining(
        'Qbox could not give player 3 the job lspd (grade 0): An error occurred while calling export SetJob of resource qbx_core',
      ),
    ]);
  });
});
