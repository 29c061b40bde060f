import { describe, expect, it } from 'vitest';
import { BCSO, LSPD, offDuty, onDuty } from '../support/duty-changes.js';
import { useSimIntegrations } from '../support/sim-integrations.js';
import { STUB_RESOURCES } from '../support/stub-resources.js';

// es_extended's stub keeps users (job, job_grade, metadata.jobDuty) in its KVP, saved every 10 minutes and on a drop.
const POLICE = { lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 2, [LSPD.lieutenant]: 9 } } };
const IDENTIFIER = 'char1:0123456789abcdef';

describe("ESX: the player's own job back off duty", () => {
  const { open, world } = useSimIntegrations();

  const start = async (convars: Record<string, string> = {}) => {
    return open([STUB_RESOURCES.esx], { JobFramework: 'esx', DepartmentJobs: POLICE }, convars);
  };
  const esx = () => world().stub('es_extended');
  /** The player as the test starts them: this job, grade and duty flag, set with ESX's setJob and saved. */
  const character = (job: string, grade: number, onDuty: boolean, src = 3) => {
    esx().loadPlayer(src, IDENTIFIER);
    esx().RunStaticPlayerMethod(src, 'setJob', job, grade, onDuty);
    esx().savePlayers();
    return { job: esx().job(src), stored: esx().stored(IDENTIFIER) };
  };

  it('keeps the job a player already holds, at their grade and duty, through on duty, off duty and a rejoin', async () => {
    const w = await start();
    const before = character('police', 1, false);
    expect(before).toEqual({
      job: { name: 'police', grade: 1, onDuty: false },
      stored: { name: 'police', grade: 1, onDuty: false },
    });

    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    expect(esx().job(3)).toEqual({ name: 'police', grade: 2, onDuty: true });
    w.bridge.change(offDuty(3));
    expect(esx().job(3)).toEqual(before.job);

    w.drop(3, 'es_extended', 'bridge');
    expect(esx().stored(IDENTIFIER)).toEqual(before.stored);
    esx().loadPlayer(3, IDENTIFIER);
    expect(esx().job(3)).toEqual(before.job);
    expect(w.warnings()).toEqual([]);
  });

  it("gives a mechanic the department's job and their own back, duty flag included", async () => {
    const w = await start();
    const before = character('mechanic', 1, true);

    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(onDuty(3, BCSO, BCSO.deputy));
    expect(esx().job(3)).toEqual({ name: 'bcso', grade: 0, onDuty: true });
    w.bridge.change(offDuty(3));
    expect(esx().job(3)).toEqual(before.job);

    w.drop(3, 'es_extended', 'framework');
    esx().loadPlayer(4, IDENTIFIER);
    expect(esx().job(4)).toEqual(before.job);
    expect(esx().stored(IDENTIFIER)).toEqual(before.stored);
  });

  it('waits for a setJob that waits while ESX reloads its jobs, instead of reading the old job back as a refusal', async () => {
    const w = await start();
    character('mechanic', 1, false);
    esx().refreshJobs(1000);

    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    expect(esx().job(3)).toMatchObject({ name: 'mechanic' });
    await w.sim.advance(1500);
    expect(esx().job(3)).toEqual({ name: 'police', grade: 2, onDuty: true });
    expect(w.warnings()).toEqual([]);

    esx().refreshJobs(1000);
    w.bridge.change(offDuty(3));
    await w.sim.advance(1500);
    expect(esx().job(3)).toEqual({ name: 'mechanic', grade: 1, onDuty: false });
    expect(w.warnings()).toEqual([]);
  });

  it('refuses a job or grade ESX does not have, says how to fix it once, and duty goes on', async () => {
    const w = await start();
    const before = character('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
    w.bridge.change(offDuty(3));
    w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
    w.bridge.change(onDuty(3, { id: 9, slug: 'doj' }, 12));
    expect(esx().job(3)).toEqual(before.job);
    expect(w.bridge.onDuty.has(3)).toBe(true);
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        'ESX refused to give player 3 the job police (grade 9): ESX kept the job mechanic (grade 1). Fix: create job police grade 9 in your jobs and job_grades tables',
      ),
      expect.stringContaining('Fix: create job doj grade 0 in your jobs and job_grades tables'),
    ]);
  });

  it('gives a player back what they had when the server died while they were on duty', async () => {
    const w = await start();
    const before = character('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await w.sim.advance(10 * 60 * 1000); // ESX saves every player every 10 minutes
    expect(esx().stored(IDENTIFIER)).toEqual({ name: 'police', grade: 1, onDuty: true });

    await w.crash();
    esx().loadPlayer(2, IDENTIFIER);
    expect(esx().job(2)).toEqual(before.job);
    w.drop(2, 'es_extended', 'framework');
    expect(esx().stored(IDENTIFIER)).toEqual(before.stored);
  });

  it('gives a player their own back before ESX saves them as they leave, when ESX hears of the drop first', async () => {
    const w = await start();
    const before = character('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    // ESX saves the player, and forgets them only when the UPDATE answered: the bridge still finds them meanwhile.
    w.drop(3, 'es_extended', 'framework');
    expect(esx().stored(IDENTIFIER)).toEqual(before.stored);
    await w.sim.tick(2);
    esx().loadPlayer(4, IDENTIFIER);
    expect(esx().job(4)).toEqual(before.job);
    expect(w.warnings()).toEqual([]);
  });

  it('keeps what it gave a player whose job is given back while ESX reloads its jobs as they leave, and gives their own back at their next load', async () => {
    const w = await start();
    const before = character('mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    esx().refreshJobs(1000);
    // setJob(mechanic) waits in DoesJobExist; ESX saves the player with the department's job meanwhile.
    w.drop(3, 'es_extended', 'bridge');
    await w.sim.advance(1500);
    expect(esx().stored(IDENTIFIER)).toMatchObject({ name: 'police' });
    esx().loadPlayer(4, IDENTIFIER);
    expect(esx().job(4)).toEqual(before.job);
    expect(w.warnings()).toEqual([]);
  });

  it('leaves a player who goes on duty while ESX reloads its jobs and leaves before setJob answered their own job, keeping no record', async () => {
    const w = await start();
    const before = character('mechanic', 1, false);
    esx().refreshJobs(1000);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.drop(3, 'es_extended', 'framework');
    await w.sim.advance(1500);
    // ESX saved the player with their own job and forgot them; setJob's answer found nobody: nothing is kept.
    expect(w.store.keys('job-given:')).toEqual([]);
    esx().loadPlayer(4, IDENTIFIER);
    expect(esx().job(4)).toEqual(before.job);
    expect(esx().stored(IDENTIFIER)).toEqual(before.stored);
  });

  it('without RunStaticPlayerMethod (ESX before 1.13.0), works on the xPlayer from GetPlayerFromId, copying ESX once', async () => {
    const w = await start({ esx_stub_legacy: 'true' });
    esx().loadPlayer(3, IDENTIFIER);
    esx().loadPlayer(4, 'char1:fedcba9876543210');
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(onDuty(4, LSPD, LSPD.officer));
    w.bridge.change(offDuty(3));
    expect(esx().job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
    expect(esx().job(4)).toEqual({ name: 'police', grade: 1, onDuty: true });
    expect((esx().calls() as Array<{ fn: string }>).filter((call) => call.fn === 'getSharedObject')).toHaveLength(1);
  });

  it('fetches GetPlayerFromId again when the kept reference died with a restart of es_extended', async () => {
    const w = await start({ esx_stub_legacy: 'true' });
    esx().loadPlayer(3, IDENTIFIER);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await w.sim.restartResource('es_extended');
    await w.sim.tick(1);
    esx().loadPlayer(3, IDENTIFIER);
    w.bridge.change(offDuty(3));
    expect(esx().job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
    expect(w.warnings()).toEqual([]);
  });

  it('tells a player without a loaded character apart from a refusal', async () => {
    const w = await start();
    w.bridge.change(onDuty(7, LSPD, LSPD.officer));
    expect(w.warnings()).toEqual([
      expect.stringContaining('ESX could not give player 7 the job police (grade 1): ESX has no player with this id'),
    ]);
  });
});

describe('ESX: FallbackJob, when the job a player had before duty was deleted meanwhile', () => {
  const { open, world } = useSimIntegrations();
  const esx = () => world().stub('es_extended');

  const mechanicOnDuty = async (fallback: Record<string, unknown> = {}) => {
    const w = await open([STUB_RESOURCES.esx], { JobFramework: 'esx', DepartmentJobs: POLICE, ...fallback });
    esx().loadPlayer(3, IDENTIFIER);
    esx().RunStaticPlayerMethod(3, 'setJob', 'mechanic', 1, false);
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    esx().removeJob('mechanic');
    return w;
  };

  it('gives FallbackJob and says which job to create again', async () => {
    const w = await mechanicOnDuty({ FallbackJob: 'sheriff', FallbackGrade: 1 });
    w.bridge.change(offDuty(3));
    expect(esx().job(3)).toEqual({ name: 'sheriff', grade: 1, onDuty: false });
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        'ESX no longer has the job mechanic (grade 1) the player had before duty; they got sheriff (grade 1). Fix: create job mechanic grade 1',
      ),
    ]);
  });

  it("never leaves the department's job on a player when FallbackJob does not exist either", async () => {
    const w = await mechanicOnDuty({ FallbackJob: 'civilian', FallbackGrade: 0 });
    w.bridge.change(offDuty(3));
    expect(esx().job(3)).toEqual({ name: 'unemployed', grade: 0, onDuty: false });
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        'ESX no longer has the job mechanic (grade 1) the player had before duty, nor FallbackJob civilian (grade 0); they got unemployed (grade 0)',
      ),
    ]);
    expect(w.warnings()[0]).toContain('create job civilian grade 0');
  });
});
