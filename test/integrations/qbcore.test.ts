import { describe, expect, it } from 'vitest';
import { BCSO, LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { fakeQbCore } from './support/fake-frameworks.js';
import { jobSetup } from './support/job-setup.js';

describe('QBCore', () => {
  it('on duty: SetJob(job, grade) then SetJobDuty(true); off duty: SetJob(fallback) keeping its defaultDuty', () => {
    const { resources, jobs } = jobSetup('qbcore', {
      departmentJobs: { lspd: { Job: 'police', Grades: { [LSPD.sergeant]: 2 } } },
    });
    const qb = fakeQbCore(resources);
    qb.load(3);

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.sergeant));
    expect(qb.job(3)).toEqual({ name: 'police', grade: 2, onDuty: true });
    jobs.dutyChanged(offDuty(3));
    expect(qb.job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: true });
    expect(resources.callsTo('qb-core')).toEqual([
      ['GetPlayer', 3],
      ['GetPlayer', 3],
    ]);
  });

  it('before the GetPlayer export (qb-core up to 2025), asks GetCoreObject only for Functions, and only once', () => {
    const { resources, jobs } = jobSetup('qbcore');
    const qb = fakeQbCore(resources, { classic: true });
    qb.load(3);
    qb.load(4);

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(4, BCSO, BCSO.deputy));
    jobs.dutyChanged(offDuty(4));

    expect(qb.job(3)).toEqual({ name: 'lspd', grade: 0, onDuty: true });
    expect(qb.job(4)).toEqual({ name: 'unemployed', grade: 0, onDuty: true });
    expect(resources.callsTo('qb-core')).toEqual([['GetCoreObject', ['Functions']]]);
  });

  it('fetches Functions.GetPlayer again after qb-core restarted', () => {
    const { resources, jobs, warnings } = jobSetup('qbcore');
    fakeQbCore(resources, { classic: true }).load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    resources.stop('qb-core');
    const restarted = fakeQbCore(resources, { classic: true });
    restarted.load(3, 'lspd', 0);

    jobs.dutyChanged(offDuty(3));

    expect(restarted.job(3)?.name).toBe('unemployed');
    expect(warnings()).toEqual([]);
  });

  it('does not put the player on duty in a job qb-core refused, and warns once', () => {
    const { resources, jobs, warnings } = jobSetup('qbcore');
    const qb = fakeQbCore(resources);
    qb.load(3, 'mechanic');
    qb.load(4, 'mechanic');

    jobs.dutyChanged(onDuty(3, { id: 9, slug: 'doj' }, 12));
    jobs.dutyChanged(onDuty(4, { id: 9, slug: 'doj' }, 12));

    expect(qb.job(3)).toEqual({ name: 'mechanic', grade: 0, onDuty: false });
    expect(warnings()).toEqual([
      expect.stringContaining('QBCore could not give player 3 the job doj (grade 0): qb-core has no job doj'),
    ]);
  });

  it('warns about a player qb-core has not loaded', () => {
    const { resources, jobs, warnings } = jobSetup('qbcore');
    fakeQbCore(resources);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    expect(warnings()).toEqual([expect.stringContaining('qb-core has no player with this id')]);
  });
});
