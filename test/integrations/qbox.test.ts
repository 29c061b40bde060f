import { describe, expect, it } from 'vitest';
import { LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { fakeQbox } from './support/fake-frameworks.js';
import { jobSetup } from './support/job-setup.js';

describe('Qbox', () => {
  it('on duty: SetJob(src, job, grade) then SetJobDuty(src, true); off duty: SetJob(src, fallback, grade)', () => {
    const { resources, jobs } = jobSetup('qbox', { departmentJobs: { lspd: { Job: 'police', Grades: { 3: 3 } } } });
    const qbox = fakeQbox(resources);
    qbox.load(3);

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.lieutenant));
    jobs.dutyChanged(offDuty(3));

    expect(resources.callsTo('qbx_core')).toEqual([
      ['GetPlayer', 3],
      ['SetJob', 3, 'police', 3],
      ['SetJobDuty', 3, true],
      ['GetPlayer', 3],
      ['SetJob', 3, 'unemployed', 0],
    ]);
    expect(qbox.job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: true });
  });

  it("reads the [false, { code, message }] answer and names Qbox's code in the warning", () => {
    const { resources, jobs, warnings } = jobSetup('qbox');
    const qbox = fakeQbox(resources);
    qbox.load(3, 'mechanic');
    qbox.failNextSetJob('max_jobs', 'player already has maximum amount of jobs allowed');

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));

    expect(warnings()).toEqual([
      expect.stringContaining('qbx_core: max_jobs: player already has maximum amount of jobs allowed'),
    ]);
    expect(resources.callsTo('qbx_core', 'SetJobDuty')).toEqual([]);
    expect(qbox.job(3)?.name).toBe('mechanic');
  });

  it('reads a bare false (an unknown job or grade) as a refusal', () => {
    const { resources, jobs, warnings } = jobSetup('qbox');
    fakeQbox(resources).load(3);
    jobs.dutyChanged(onDuty(3, { id: 9, slug: 'doj' }, 12));
    expect(warnings()).toEqual([expect.stringContaining('qbx_core turned it down')]);
  });

  it('asks GetPlayer first, so a player Qbox has not loaded never makes SetJob fail inside qbx_core', () => {
    const { resources, jobs, warnings } = jobSetup('qbox');
    fakeQbox(resources);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    expect(resources.callsTo('qbx_core', 'SetJob')).toEqual([]);
    expect(warnings()).toEqual([expect.stringContaining('qbx_core has no player with this id')]);
  });
});
