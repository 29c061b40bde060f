import { describe, expect, it } from 'vitest';
import type { DepartmentJobs } from '../../../../shared/config/department-jobs.js';
import { BCSO, LSPD, offDuty, onDuty } from '../support/duty-changes.js';
import { type SimIntegrations, useSimIntegrations } from '../support/sim-integrations.js';
import { STUB_RESOURCES } from '../support/stub-resources.js';

// qbx_core's stub keeps players.job and player_groups in its KVP (server/player.lua, server/storage/players.lua).
const POLICE = { lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 2, [LSPD.lieutenant]: 3 } } };
const CITIZEN = 'QBX10001';

describe('Qbox: the multi-job calls by citizenid, never a job the player had', () => {
  const { open, world } = useSimIntegrations();

  const start = async (convars: Record<string, string> = {}, departmentJobs: DepartmentJobs = POLICE) => {
    return open([STUB_RESOURCES.qbox], { JobFramework: 'qbox', DepartmentJobs: departmentJobs }, convars);
  };
  const qbox = () => world().stub('qbx_core');
  /** What Qbox holds for the citizen: in memory (player `src`) and in storage. */
  const holdings = (src = 3) => ({ job: qbox().job(src), jobs: qbox().jobs(src), stored: qbox().stored(CITIZEN) });
  /** The player as the test starts them, through qbx_core's own calls: these jobs, this primary job and duty. */
  const citizen = (jobs: Record<string, number>, primary?: string, onduty?: boolean) => {
    qbox().loadPlayer(3, CITIZEN);
    for (const [job, grade] of Object.entries(jobs)) qbox().AddPlayerToJob(CITIZEN, job, grade);
    if (primary) qbox().SetPlayerPrimaryJob(CITIZEN, primary);
    if (onduty !== undefined) qbox().SetJobDuty(3, onduty);
  };
  const dutyEvents = (w: SimIntegrations) => w.sim.eventsNamed('QBCore:Server:SetDuty').map((event) => event.args);

  it('keeps the job a player already holds, at their grade and duty, through on duty, off duty and a rejoin', async () => {
    const w = await start();
    citizen({ police: 1 }, 'police', false);
    const before = holdings();
    expect(before).toEqual({
      job: { name: 'police', grade: 1, onduty: false },
      jobs: { police: 1 },
      stored: { job: { name: 'police', grade: 1 }, jobs: { police: 1 } },
    });
    const heard = dutyEvents(w).length;

    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    expect(holdings()).toMatchObject({ job: { name: 'police', grade: 2, onduty: true }, jobs: { police: 2 } });
    w.bridge.change(offDuty(3));
    expect(holdings()).toEqual(before);
    expect(dutyEvents(w).slice(heard)).toEqual([
      [3, true],
      [3, false],
    ]);

    w.drop(3, 'qbx_core', 'framework');
    qbox().loadPlayer(3, CITIZEN);
    expect(holdings()).toMatchObject({ job: { name: 'police', grade: 1 }, jobs: { police: 1 }, stored: before.stored });
    expect(w.warnings()).toEqual([]);
  });

  for (const replaces of ['true', 'false']) {
    it(`gives a mechanic the department's job beside theirs and takes only that back (qbx:setjob_replaces ${replaces})`, async () => {
      const w = await start({ 'qbx:setjob_replaces': replaces, 'qbx:max_jobs_per_player': '2' });
      citizen({ mechanic: 1 }, 'mechanic');
      const before = holdings();
      expect(before.stored).toEqual({ job: { name: 'mechanic', grade: 1 }, jobs: { mechanic: 1 } });

      w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
      expect(holdings()).toMatchObject({
        job: { name: 'police', grade: 3, onduty: true },
        jobs: { mechanic: 1, police: 3 },
      });
      w.bridge.change(offDuty(3));
      expect(holdings()).toEqual(before);

      w.drop(3, 'qbx_core', 'framework');
      qbox().loadPlayer(4, CITIZEN);
      expect(holdings(4)).toMatchObject({
        job: { name: 'mechanic', grade: 1 },
        jobs: { mechanic: 1 },
        stored: before.stored,
      });
      expect(qbox().calls()).not.toContainEqual(expect.objectContaining({ fn: 'SetJob' }));
    });
  }

  it('switches department and follows a new rank while on duty, and still gives back only what it added', async () => {
    const w = await start({ 'qbx:max_jobs_per_player': '2' }, { bcso: { Grades: { [BCSO.sergeant]: 1 } } });
    citizen({ mechanic: 0 }, 'mechanic');
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(onDuty(3, BCSO, BCSO.deputy));
    w.bridge.change(onDuty(3, BCSO, BCSO.sergeant));
    expect(holdings()).toMatchObject({ job: { name: 'bcso', grade: 1 }, jobs: { mechanic: 0, bcso: 1 } });
    w.bridge.change(offDuty(3));
    expect(holdings()).toEqual(before);
  });

  it('follows a department the panel renamed to the new slug’s job, and still gives back only what it added', async () => {
    const w = await start({ 'qbx:max_jobs_per_player': '2' }, { lapd: { Job: 'bcso', Grades: {} } });
    citizen({ mechanic: 0 }, 'mechanic');
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    expect(holdings()).toMatchObject({ job: { name: 'lspd' }, jobs: { mechanic: 0, lspd: 0 } });
    // The same department (id 1) under the slug `lapd`: the job of `lapd` replaces the job of `lspd`.
    w.bridge.change(onDuty(3, { id: LSPD.id, slug: 'lapd' }, LSPD.officer));
    expect(holdings()).toMatchObject({ job: { name: 'bcso', grade: 0 }, jobs: { mechanic: 0, bcso: 0 } });
    w.bridge.change(offDuty(3));
    expect(holdings()).toEqual(before);
    expect(w.warnings()).toEqual([]);
  });

  it('refuses when the player has as many jobs as qbx:max_jobs_per_player allows, says how to fix it once, and duty goes on', async () => {
    const w = await start();
    citizen({ mechanic: 1 }, 'mechanic');
    const before = holdings();
    qbox().loadPlayer(4, 'QBX10002');
    qbox().AddPlayerToJob('QBX10002', 'mechanic', 0);

    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(onDuty(4, LSPD, LSPD.officer));
    expect(holdings()).toEqual(before);
    expect(w.bridge.onDuty.has(3)).toBe(true);
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        'Qbox refused to give player 3 the job police (grade 1): max_jobs: player already has maximum amount of jobs allowed',
      ),
    ]);
    expect(w.warnings()[0]).toContain('set qbx:max_jobs_per_player 2 in server.cfg');

    w.bridge.change(offDuty(3));
    expect(holdings()).toEqual(before);
  });

  it('refuses an unknown job or grade with the fix', async () => {
    const w = await start({}, { lspd: { Job: 'police', Grades: { [LSPD.lieutenant]: 9 } } });
    citizen({});
    w.bridge.change(onDuty(3, { id: 9, slug: 'doj' }, 12));
    w.bridge.change(offDuty(3));
    w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
    expect(holdings().job).toEqual({ name: 'unemployed', grade: 0, onduty: true });
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        'job_not_found: doj does not exist in core memory. Fix: add the job doj to qbx_core/shared/jobs.lua',
      ),
      expect.stringContaining(
        'job_missing_grade: job police does not have grade 9. Fix: add grade 9 to the job police in qbx_core/shared/jobs.lua',
      ),
    ]);
  });

  it('gives a player back what they had when the server died while they were on duty', async () => {
    const w = await start({ 'qbx:max_jobs_per_player': '2' });
    citizen({ mechanic: 1 }, 'mechanic');
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    expect(qbox().stored(CITIZEN)).toEqual({ job: { name: 'police', grade: 1 }, jobs: { mechanic: 1, police: 1 } });

    await w.crash();
    qbox().loadPlayer(8, CITIZEN);
    expect(holdings(8)).toMatchObject({
      job: { name: 'mechanic', grade: 1 },
      jobs: { mechanic: 1 },
      stored: before.stored,
    });
  });

  it('gives a player back what they had when qbx_core unloaded them before the bridge heard of the drop', async () => {
    const w = await start({ 'qbx:max_jobs_per_player': '2' });
    citizen({ mechanic: 1 }, 'mechanic');
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.drop(3, 'qbx_core', 'framework');
    expect(w.warnings()).toEqual([]);
    qbox().loadPlayer(5, CITIZEN);
    expect(holdings(5)).toMatchObject({
      job: { name: 'mechanic', grade: 1 },
      jobs: { mechanic: 1 },
      stored: before.stored,
    });
  });

  it("gives the primary job back when someone removed the department's job while they were on duty (a boss firing them)", async () => {
    const w = await start({ 'qbx:max_jobs_per_player': '2' });
    citizen({ mechanic: 1 }, 'mechanic', false);
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    // RemovePlayerFromJob of the primary job makes Qbox set the primary job to unemployed, and save it.
    qbox().RemovePlayerFromJob(CITIZEN, 'police');
    expect(holdings()).toMatchObject({ job: { name: 'unemployed' }, stored: { job: { name: 'unemployed' } } });
    w.bridge.change(offDuty(3));
    expect(holdings()).toEqual(before);
  });

  it('leaves a player unemployed who held the department job as their primary one and was removed from it', async () => {
    const w = await start();
    citizen({ police: 1 }, 'police', false);
    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    qbox().RemovePlayerFromJob(CITIZEN, 'police');
    w.bridge.change(offDuty(3));
    expect(holdings()).toMatchObject({
      job: { name: 'unemployed' },
      jobs: [],
      stored: { job: { name: 'unemployed' } },
    });
  });

  it('asks GetPlayer first, so a player Qbox has not loaded never makes a call fail inside qbx_core', async () => {
    const w = await start();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    expect(qbox().calls()).toEqual([]);
    expect(w.warnings()).toEqual([expect.stringContaining('qbx_core has no player with this id')]);
  });
});
