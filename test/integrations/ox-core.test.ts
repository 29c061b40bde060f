import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BCSO, LSPD, offDuty, onDuty } from './support/duty-changes.js';
import { fakeOxCore } from './support/fake-frameworks.js';
import { jobSetup } from './support/job-setup.js';

describe('ox_core', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sets the department's group at grade 1 at least on duty, and removes it (grade 0) off duty", async () => {
    const { resources, jobs } = jobSetup('ox_core', { departmentJobs: { lspd: { Grades: { [LSPD.sergeant]: 2 } } } });
    const ox = fakeOxCore(resources);
    ox.load(3);
    ox.load(4);

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.sergeant));
    jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer));
    await vi.advanceTimersByTimeAsync(50);
    expect(ox.of(3)).toEqual({ lspd: 2 });
    expect(ox.of(4)).toEqual({ lspd: 1 });

    jobs.dutyChanged(offDuty(3));
    await vi.advanceTimersByTimeAsync(50);
    expect(ox.of(3)).toEqual({});
    expect(resources.callsTo('ox_core', 'CallPlayer')).toEqual([
      [3, 'setGroup', 'lspd', 2],
      [4, 'setGroup', 'lspd', 1],
      [3, 'setGroup', 'lspd', 0],
    ]);
  });

  it('raises a mapped grade 0 to 1, since grade 0 would remove the group', async () => {
    const { resources, jobs } = jobSetup('ox_core', { departmentJobs: { lspd: { Job: 'police', Grades: { 1: 0 } } } });
    const ox = fakeOxCore(resources);
    ox.load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    await vi.advanceTimersByTimeAsync(50);
    expect(ox.of(3)).toEqual({ police: 1 });
  });

  it('starts a change only after the one before it answered, so off duty never overtakes on duty', async () => {
    const { resources, jobs } = jobSetup('ox_core');
    const ox = fakeOxCore(resources);
    ox.load(3);

    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(offDuty(3));
    expect(resources.callsTo('ox_core', 'CallPlayer')).toEqual([[3, 'setGroup', 'lspd', 1]]);

    await vi.advanceTimersByTimeAsync(50);
    expect(resources.callsTo('ox_core', 'CallPlayer')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(50);
    expect(ox.of(3)).toEqual({});
  });

  it('calls ox_core at once when nothing is pending (a stopping bridge gets no later tick)', () => {
    const { resources, jobs } = jobSetup('ox_core');
    fakeOxCore(resources).load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    expect(resources.callsTo('ox_core', 'CallPlayer')).toHaveLength(1);
  });

  it("removes the old department's group when the player switches department", async () => {
    const { resources, jobs } = jobSetup('ox_core');
    const ox = fakeOxCore(resources);
    ox.load(3);
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(3, BCSO, BCSO.deputy));
    await vi.advanceTimersByTimeAsync(200);
    expect(ox.of(3)).toEqual({ bcso: 1 });
  });

  it('warns once about a player without a character and about a rejected call, with the reason', async () => {
    const { resources, jobs, warnings } = jobSetup('ox_core');
    const ox = fakeOxCore(resources);
    ox.load(3, { character: false });
    ox.load(4);
    ox.rejectNext = 'database unavailable';

    jobs.dutyChanged(onDuty(4, LSPD, LSPD.officer));
    jobs.dutyChanged(onDuty(3, LSPD, LSPD.officer));
    await vi.advanceTimersByTimeAsync(50);

    expect(warnings()).toEqual([
      expect.stringContaining('ox_core could not give player 4 the job lspd (grade 1): database unavailable'),
      expect.stringContaining('the player has no character loaded'),
    ]);
  });
});
