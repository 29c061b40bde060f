// GlobalState['bridge:onDutyCount'] and GetOnDutyCount in the simulator, against the mock panel: after each kind of
// change, read by the Lua one-liner of docs/operations.md on the server, by a client, and through the export.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../bench/support/demo-users.js';
import type { SimPlayer } from '../../sim/index.js';
import { MEMBER_WITHOUT_RANK_ROLE, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { changeDuty } from './support/bridge-exports.js';
import { REPO_ROOT, startWorld, type World } from './support/world.js';

const DUTY_PERKS = join(import.meta.dirname, 'fixtures', 'duty_perks');
const ONE_LINER = "local police = (GlobalState['bridge:onDutyCount'] or {}).lspd or 0";
const CASEY = MEMBER_WITHOUT_RANK_ROLE;

it('documents the one-liner the robbery fixture runs', () => {
  const fixture = readFileSync(join(DUTY_PERKS, 'server.lua'), 'utf8');
  expect(fixture).toContain(ONE_LINER);
  expect(readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8')).toContain(ONE_LINER);
});

describe("the on-duty counts (GlobalState['bridge:onDutyCount'], GetOnDutyCount)", () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const duty = (player: SimPlayer, on: boolean, departmentIndex = 0) =>
    changeDuty(world.sim, player, on, departmentIndex);

  it('follow on, switch, rank, off, drop and the bridge stopping, on the server, on clients and in the export', async () => {
    world = await startWorld({ clock: 'virtual', resources: [DUTY_PERKS] });
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    const casey = await world.join(CASEY, 'Casey Novak');
    const perks = sim.exports.duty_perks as unknown as { canRob(): [boolean, number]; counts(): unknown };
    const count = sim.exports.bridge as unknown as { GetOnDutyCount(slug?: unknown): number };
    const seen: unknown[] = [];
    const look = async () => {
      await sim.settle();
      const server = sim.stateBag('global')['bridge:onDutyCount'];
      // Replicated to every client, read there from Lua.
      for (const player of [alex, jamie, casey].filter((p) => p.connected)) {
        expect((player.exports.duty_perks as unknown as { counts(): unknown }).counts()).toEqual(server);
      }
      expect(perks.counts()).toEqual(server);
      seen.push([server, perks.canRob(), count.GetOnDutyCount(), count.GetOnDutyCount('lspd')]);
    };

    await look();
    await duty(alex, true, 0);
    await look();
    await duty(casey, true, 0);
    await look();
    await duty(jamie, true, 0);
    await look();
    await duty(alex, true, 1); // switch to BCSO
    await look();
    world.panel.controls.setRoles(CASEY, [ROLES.lspdMember, ROLES.lspdSergeant]);
    casey.command('dutyrefresh'); // a new rank: no count moves
    await look();
    await duty(jamie, false);
    await look();
    casey.drop();
    await look();

    expect(seen).toEqual([
      [{ total: 0 }, [false, 0], 0, 0],
      [{ lspd: 1, total: 1 }, [false, 1], 1, 1],
      [{ lspd: 2, total: 2 }, [true, 2], 2, 2],
      [{ lspd: 2, safr: 1, total: 3 }, [true, 2], 3, 2],
      [{ lspd: 1, safr: 1, bcso: 1, total: 3 }, [false, 1], 3, 1],
      [{ lspd: 1, safr: 1, bcso: 1, total: 3 }, [false, 1], 3, 1],
      [{ lspd: 1, bcso: 1, total: 2 }, [false, 1], 2, 1],
      [{ bcso: 1, total: 1 }, [false, 0], 1, 0],
    ]);
    expect(world.eventArgs('bridge:server:playerRankChanged')).toHaveLength(1);

    await sim.stopResource('bridge');
    await sim.settle();
    expect(sim.stateBag('global')['bridge:onDutyCount']).toEqual({ total: 0 });
    expect((alex.exports.duty_perks as unknown as { counts(): unknown }).counts()).toEqual({ total: 0 });
  });

  it('cannot be written by a client: FXServer takes GlobalState from the server only', async () => {
    world = await startWorld({ clock: 'virtual', resources: [DUTY_PERKS] });
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await duty(alex, true, 0);
    (jamie.exports.duty_perks as unknown as { forgeCounts(counts: unknown): void }).forgeCounts({ lspd: 9, total: 9 });
    await sim.settle();
    expect(sim.stateBag('global')['bridge:onDutyCount']).toEqual({ lspd: 1, total: 1 });
    expect((alex.exports.duty_perks as unknown as { counts(): unknown }).counts()).toEqual({ lspd: 1, total: 1 });
    expect((sim.exports.duty_perks as unknown as { canRob(): [boolean, number] }).canRob()).toEqual([false, 1]);
  });
});
