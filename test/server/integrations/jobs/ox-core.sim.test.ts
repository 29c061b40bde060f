import { describe, expect, it } from 'vitest';
import type { DepartmentJobs } from '../../../../shared/config/department-jobs.js';
import { BCSO, LSPD, offDuty, onDuty } from '../support/duty-changes.js';
import { useSimIntegrations } from '../support/sim-integrations.js';
import { STUB_RESOURCES } from '../support/stub-resources.js';

// ox_core's stub keeps character_groups in its KVP (server/groups/db.ts); every setGroup is awaited a frame.
const POLICE = { lspd: { Job: 'police', Grades: { [LSPD.officer]: 1, [LSPD.sergeant]: 2, [LSPD.lieutenant]: 3 } } };
const CHAR = 103;

describe('ox_core: the department group and the active group, never a group the character had', () => {
  const { open, world } = useSimIntegrations();

  const start = async (departmentJobs: DepartmentJobs = POLICE) => {
    return open([STUB_RESOURCES.oxCore], { JobFramework: 'ox_core', DepartmentJobs: departmentJobs });
  };
  const ox = () => world().stub('ox_core');
  /** What ox_core holds for the character: in memory (player 3) and in character_groups. */
  const holdings = (src = 3) => ({
    groups: ox().groups(src),
    active: ox().activeGroup(src) ?? null,
    stored: ox().stored(CHAR),
  });
  const frames = () => world().sim.tick(10);
  /** The character as the test starts it: these groups (via ox_core's own setGroup) and this active group. */
  const character = async (groups: Record<string, number>, active?: string) => {
    ox().loadPlayer(3, CHAR);
    for (const [name, grade] of Object.entries(groups))
      await world().sim.resolve(ox().CallPlayer(3, 'setGroup', name, grade) as Promise<unknown>);
    if (active) ox().CallPlayer(3, 'setActiveGroup', active);
    const calls = (ox().calls() as unknown[]).length;
    return () => (ox().calls() as unknown[]).slice(calls);
  };

  it('keeps the group a character already holds, at their grade, through on duty, off duty and a rejoin', async () => {
    const w = await start();
    await character({ police: 1 });
    const before = holdings();
    expect(before).toEqual({
      groups: { police: 1 },
      active: null,
      stored: [{ name: 'police', grade: 1, isActive: false }],
    });

    w.bridge.change(onDuty(3, LSPD, LSPD.sergeant));
    await frames();
    expect(holdings()).toMatchObject({ groups: { police: 2 }, active: 'police' });
    expect(w.sim.stateBag('global')['police:activeCount']).toBe(1);
    expect(ox().GetGroupActivePlayers('police')).toEqual([3]);

    w.bridge.change(offDuty(3));
    await frames();
    expect(holdings()).toEqual(before);
    expect(w.sim.stateBag('global')['police:activeCount']).toBe(0);

    w.drop(3, 'ox_core', 'framework');
    ox().loadPlayer(3, CHAR);
    await frames();
    expect(holdings()).toEqual(before);
    expect(w.warnings()).toEqual([]);
  });

  it("adds the department's group to a character with another one, makes it their active group, and gives both back", async () => {
    const w = await start();
    await character({ mechanic: 2 }, 'mechanic');
    const before = holdings();
    expect(before).toEqual({
      groups: { mechanic: 2 },
      active: 'mechanic',
      stored: [{ name: 'mechanic', grade: 2, isActive: true }],
    });

    w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
    await frames();
    expect(holdings()).toMatchObject({ groups: { mechanic: 2, police: 3 }, active: 'police' });
    // A temporary active group: a server that dies now does not bring the character back on duty.
    expect(ox().stored(CHAR)).toEqual([
      { name: 'mechanic', grade: 2, isActive: false },
      { name: 'police', grade: 3, isActive: false },
    ]);

    w.bridge.change(offDuty(3));
    await frames();
    expect(holdings()).toEqual(before);

    w.drop(3, 'ox_core', 'framework');
    ox().loadPlayer(4, CHAR);
    await frames();
    expect(holdings(4)).toEqual(before);
  });

  it('switches department while on duty without leaving the old group behind', async () => {
    const w = await start({});
    await character({ mechanic: 1 }, 'mechanic');
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await frames();
    w.bridge.change(onDuty(3, BCSO, BCSO.deputy));
    await frames();
    expect(holdings()).toMatchObject({ groups: { mechanic: 1, bcso: 1 }, active: 'bcso' });
    w.bridge.change(offDuty(3));
    await frames();
    expect(holdings()).toEqual(before);
  });

  it('refuses a group of a type the character already holds one of, says how to fix it once, and duty goes on', async () => {
    const w = await start();
    await character({ sheriff: 1 });
    const before = holdings();

    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await frames();
    expect(holdings()).toEqual(before);
    expect(w.bridge.onDuty.has(3)).toBe(true);
    expect(w.warnings()).toEqual([
      expect.stringContaining(
        "ox_core refused to give player 3 the group police (grade 1): the character holds sheriff, of the same type 'leo', and ox_core allows one group of a type",
      ),
    ]);
    expect(w.warnings()[0]).toContain('map the department to sheriff in Config.Integrations.DepartmentJobs');

    w.bridge.change(offDuty(3));
    await frames();
    expect(holdings()).toEqual(before);
  });

  it('refuses an unknown group or grade with the fix, once each', async () => {
    const w = await start({ lspd: { Job: 'police', Grades: { [LSPD.lieutenant]: 9 } } });
    await character({});
    w.bridge.change(onDuty(3, { id: 9, slug: 'doj' }, 12));
    await frames();
    w.bridge.change(offDuty(3));
    w.bridge.change(onDuty(3, LSPD, LSPD.lieutenant));
    await frames();
    expect(holdings().groups).toEqual([]);
    expect(w.warnings()).toEqual([
      expect.stringContaining('ox_core has no group doj. Fix: create it (ox_groups, or exports.ox_core:CreateGroup)'),
      expect.stringContaining('ox_core has no grade 9 in the group police. Fix: add it to ox_group_grades'),
    ]);
  });

  it('gives a character back what they had when the server died while they were on duty', async () => {
    const w = await start();
    await character({ mechanic: 2 }, 'mechanic');
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await frames();

    await w.crash();
    ox().loadPlayer(7, CHAR);
    await frames();
    expect(holdings(7)).toEqual(before);
    expect(w.lines).toContainEqual(
      expect.stringContaining('INFO: gave player 7 (character 103) back what they had before going on duty'),
    );
  });

  it('gives a character back what they had when ox_core unloaded them before the bridge heard of the drop', async () => {
    const w = await start();
    await character({ mechanic: 2 }, 'mechanic');
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await frames();

    w.drop(3, 'ox_core', 'framework');
    await frames();
    expect(ox().stored(CHAR)).toContainEqual({ name: 'police', grade: 1, isActive: false });
    ox().loadPlayer(5, CHAR);
    await frames();
    expect(holdings(5)).toEqual(before);
    expect(w.warnings()).toEqual([]);
  });

  it('leaves a group someone else changed while the player was on duty', async () => {
    const w = await start();
    await character({});
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await frames();
    // An admin promotes them in ox_core while they are on duty: the group is theirs now.
    await w.sim.resolve(ox().CallPlayer(3, 'setGroup', 'police', 3) as Promise<unknown>);
    w.bridge.change(offDuty(3));
    await frames();
    expect(holdings().groups).toEqual({ police: 3 });
  });

  it('calls ox_core at once, and starts each change only after the one before answered (off never overtakes on)', async () => {
    const w = await start();
    await character({ mechanic: 1 }, 'mechanic');
    const before = holdings();
    const calls = (ox().calls() as unknown[]).length;
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    w.bridge.change(offDuty(3));
    expect((ox().calls() as unknown[]).slice(calls)).toEqual([{ fn: 'setGroup', src: 3, name: 'police', grade: 1 }]);
    await frames();
    expect(holdings()).toEqual(before);
  });

  it('warns about a player without a character loaded, and calls nothing', async () => {
    const w = await start();
    ox().loadPlayer(3);
    const calls = (ox().calls() as unknown[]).length;
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await frames();
    expect(w.warnings()).toEqual([expect.stringContaining('ox_core: the player has no character loaded')]);
    expect((ox().calls() as unknown[]).slice(calls)).toEqual([]);
  });
});

describe('ox_core: a drop while a call to ox_core is still pending', () => {
  const { open, world } = useSimIntegrations();
  const ox = () => world().stub('ox_core');
  const holdings = (src = 3) => ({
    groups: ox().groups(src),
    active: ox().activeGroup(src) ?? null,
    stored: ox().stored(CHAR),
  });
  const frames = () => world().sim.tick(10);

  const mechanic = async () => {
    const w = await open([STUB_RESOURCES.oxCore], { JobFramework: 'ox_core', DepartmentJobs: POLICE });
    ox().loadPlayer(3, CHAR);
    await w.sim.resolve(ox().CallPlayer(3, 'setGroup', 'mechanic', 2) as Promise<unknown>);
    ox().CallPlayer(3, 'setActiveGroup', 'mechanic');
    return w;
  };

  it('gives back the active group when ox_core unloads the player while the group is being removed', async () => {
    const w = await mechanic();
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    await frames();

    // The bridge hears of the drop first: setGroup(police, 0) is waiting on the database when ox_core logs out.
    w.drop(3, 'ox_core', 'bridge');
    await frames();
    ox().loadPlayer(5, CHAR);
    await frames();
    expect(holdings(5)).toEqual(before);
  });

  it('takes the group back when ox_core unloads the player while setGroup is still writing it', async () => {
    const w = await mechanic();
    const before = holdings();
    w.bridge.change(onDuty(3, LSPD, LSPD.officer));
    // ox_core logs out before its INSERT answered: the row is written all the same.
    w.drop(3, 'ox_core', 'framework');
    await frames();
    ox().loadPlayer(5, CHAR);
    await frames();
    expect(holdings(5)).toEqual(before);
    expect(w.warnings()).toEqual([]);
  });
});
