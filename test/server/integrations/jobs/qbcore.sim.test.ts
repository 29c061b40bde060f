import { describe, expect, it } from 'vitest';
import { BCSO, LSPD, offDuty, onDuty } from '../support/duty-changes.js';
import { type SimIntegrations, useSimIntegrations } from '../support/sim-integrations.js';
import { STUB_RESOURCES } from '../support/stub-resources.js';

// qb-core's stub keeps players.job in its KVP, written by QBCore.Player.Save (load, the 5-minute update, the drop).
const POLICE = { lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 2, [LSPD.lieutenant]: 9 } } };
const CITIZEN = 'QBC10001';

interface QbPlayer {
  Functions: { SetJob(job: string, grade: number): boolean; SetJobDuty(onDuty: boolean): void };
}

describe("QBCore: the player's own job back off duty, and the duty events scripts listen for", () => {
  const { open, world } = useSimIntegrations();

  const start = async (convars: Record<string, string> = {}) => {
    return open([STUB_RESOURCES.qbcore], { JobFramework: 'qbcore', DepartmentJobs: POLICE }, convars);
  };
  const qb = () => world().stub('qb-core');
  /** The player as the test starts them: this job and grade (set and saved through qb-core), and this duty. */
  const player = (src: number) =>
    (qb().GetCoreObject(['Functions']) as { Functions: { GetPlayer(src: number): QbPlayer } }).Functions.GetPlayer(src);
  const citizen = (job: string, grade: number, onduty: boolean, src = 3) => {
    qb().loadPlayer(src, CITIZEN);
    player(src).Functions.SetJob(job, grade);
    player(src).Functions.SetJobDuty(onduty);
    qb().savePlayer(src);
    return { job: qb().job(src), stored: qb().stored(CITIZEN) };
  };
  const dutyEvents = (w: SimIntegrations) => w.sim.eventsNamed('QBCore:Server:SetDuty').map((event) => event.args);

  it('keeps the job a player already holds, at their grade and duty, through on duty, off duty and a rejoin', async () => {
    const w = await start();
    const before = citizen('police', 1, false);
    expect(before).toEqual({
      job: { name: 'police', grade: 1, gradeName: 'Officer', onduty: false },
      stored: { name: 'police', grade: 1, onduty: false },
    });

    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    expect(qb().job(3)).toMatchObject({ name: 'police', grade: 2, onduty: true });
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toEqual(before.job);

    w.drop(3, 'qb-core', 'bridge');
    expect(qb().stored(CITIZEN)).toEqual(before.stored);
    qb().loadPlayer(3, CITIZEN);
    expect(qb().job(3)).toMatchObject({ name: 'police', grade: 1 });
    expect(w.warnings()).toEqual([]);
  });

  it("gives a mechanic the department's job and their own back, with the duty they had", async () => {
    const w = await start();
    const before = citizen('mechanic', 1, true);

    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    expect(qb().job(3)).toMatchObject({ name: 'police', grade: 1, onduty: true });
    w.bridge.change(onDuty(3, BCSO, BCSO.deputy));
    expect(qb().job(3)).toMatchObject({ name: 'bcso', grade: 0, onduty: true });
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toEqual(before.job);

    w.drop(3, 'qb-core', 'framework');
    expect(qb().stored(CITIZEN)).toEqual(before.stored);
    qb().loadPlayer(6, CITIZEN);
    expect(qb().job(6)).toMatchObject({ name: 'mechanic', grade: 1 });
  });

  it('gives the job once the character loads to a player on duty before it (a shift resumed at a rejoin), not after an off', async () => {
    const w = await start();
    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    w.bridge.change(onDuty(4, LSPD, LSPD.officer));
    w.bridge.change(offDuty(4));
    qb().loadPlayer(3, CITIZEN);
    qb().loadPlayer(4, 'QBC10002');
    expect(qb().job(3)).toMatchObject({ name: 'police', grade: 2, onduty: true });
    expect(qb().job(4)).toMatchObject({ name: 'unemployed' });
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toMatchObject({ name: 'unemployed' });
  });

  it("fires QBCore:Server:SetDuty on and off duty, as qb-core's own toggle does (the client's: test/e2e)", async () => {
    const w = await start();
    citizen('mechanic', 0, false);

    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    w.bridge.change(offDuty(3));

    expect(dutyEvents(w)).toEqual([
      [3, true],
      [3, false],
    ]);
  });

  it("refuses a grade qb-core does not have (it would make it 'No Grades' level 0), says how to fix it once, and duty goes on", async () => {
    const w = await start();
    const before = citizen('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
    expect(qb().job(3)).toEqual(before.job);
    expect(w.bridge.onDuty.has(3)).toBe(true);
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        "QBCore refused to give player 3 the job police (grade 9): qb-core has no grade 9 in the job police (it gave 'No Grades', level 0). Fix: add grade '9' to the job police in qb-core/shared/jobs.lua",
      ),
    ]);
    expect(dutyEvents(w)).toEqual([]);
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toEqual(before.job);
  });

  it('refuses a job qb-core does not have, with the fix', async () => {
    const w = await start();
    const before = citizen('mechanic', 0, false);
    w.bridge.change(onDuty(3, { id: 9, slug: 'doj' }, 12));
    expect(qb().job(3)).toEqual(before.job);
    expect(w.warnings()).toEqual([
      expect.stringContaining('qb-core has no job doj. Fix: add the job doj to qb-core/shared/jobs.lua'),
    ]);
  });

  it('gives a player back what they had when the server died while they were on duty', async () => {
    const w = await start();
    const before = citizen('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    qb().savePlayer(3); // the client's 5-minute QBCore:UpdatePlayer
    expect(qb().stored(CITIZEN)).toMatchObject({ name: 'police', grade: 1 });

    await w.crash();
    qb().loadPlayer(9, CITIZEN);
    expect(qb().job(9)).toMatchObject({ name: 'mechanic', grade: 1 });
    w.drop(9, 'qb-core', 'framework');
    expect(qb().stored(CITIZEN)).toEqual(before.stored);
  });

  it('gives a player back what they had when qb-core saved and unloaded them before the bridge heard of the drop', async () => {
    const w = await start();
    const before = citizen('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.drop(3, 'qb-core', 'framework');
    expect(qb().stored(CITIZEN)).toMatchObject({ name: 'police' });
    qb().loadPlayer(4, CITIZEN);
    expect(qb().job(4)).toMatchObject({ name: 'mechanic', grade: 1 });
    expect(w.warnings()).toEqual([]);
    w.drop(4, 'qb-core', 'framework');
    expect(qb().stored(CITIZEN)).toEqual(before.stored);
  });

  it('leaves a job someone else set while the player was on duty', async () => {
    const w = await start();
    citizen('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    player(3).Functions.SetJob('sheriff', 1);
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toMatchObject({ name: 'sheriff', grade: 1 });
  });

  it("on a qb-core before 2026, gets the player from GetCoreObject({ 'Functions' }), asked once", async () => {
    const w = await start({ qbcore_stub_classic: 'true' });
    const before = citizen('mechanic', 1, false);
    const seeded = (qb().calls() as unknown[]).length;
    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    expect(qb().job(3)).toMatchObject({ name: 'police', grade: 2 });
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toEqual(before.job);
    const calls = (qb().calls() as Array<{ fn: string }>).slice(seeded);
    expect(calls.filter((call) => call.fn === 'GetCoreObject')).toEqual([
      { fn: 'GetCoreObject', filters: ['Functions'] },
    ]);
  });

  it('fetches Functions.GetPlayer again after qb-core restarted', async () => {
    const w = await start({ qbcore_stub_classic: 'true' });
    citizen('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await w.sim.restartResource('qb-core');
    await w.sim.tick(1);
    qb().loadPlayer(3, CITIZEN);
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toMatchObject({ name: 'mechanic', grade: 1 });
    expect(w.warnings()).toEqual([]);
  });

  it('warns about a player qb-core has not loaded', async () => {
    const w = await start();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    expect(w.warnings()).toEqual([expect.stringContaining('qb-core has no player with this id')]);
  });
});

describe('QBCore: FallbackJob, when the job a player had before duty was removed meanwhile (RemoveJob)', () => {
  const { open, world } = useSimIntegrations();
  const qb = () => world().stub('qb-core');

  const mechanicOnDuty = async (fallback: Record<string, unknown>) => {
    const w = await open([STUB_RESOURCES.qbcore], { JobFramework: 'qbcore', DepartmentJobs: POLICE, ...fallback });
    qb().loadPlayer(3, CITIZEN);
    (qb().GetPlayer(3) as QbPlayer).Functions.SetJob('mechanic', 1);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    qb().RemoveJob('mechanic');
    return w;
  };

  it('gives FallbackJob and says which job to add again', async () => {
    const w = await mechanicOnDuty({ FallbackJob: 'sheriff', FallbackGrade: 1 });
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toMatchObject({ name: 'sheriff', grade: 1 });
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        "qb-core no longer has the job mechanic (grade 1) the player had before duty; they got sheriff (grade 1). Fix: add grade '1' of the job mechanic to qb-core/shared/jobs.lua",
      ),
    ]);
  });

  it("never leaves the department's job on a player when FallbackJob does not exist either", async () => {
    const w = await mechanicOnDuty({ FallbackJob: 'civilian', FallbackGrade: 0 });
    w.bridge.change(offDuty(3));
    expect(qb().job(3)).toMatchObject({ name: 'unemployed', grade: 0 });
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        'qb-core no longer has the job mechanic (grade 1) the player had before duty, nor FallbackJob civilian (grade 0); they got unemployed (grade 0)',
      ),
    ]);
  });
});
