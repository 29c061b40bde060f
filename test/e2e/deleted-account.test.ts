// A chat account the panel deletes (or bans) while its player is on duty, in the simulator against the mock panel's
// DELETE /__mock/users/:chatId: the panel's own 404 `user_not_found` ends the duty everywhere the duty shows, within
// one revalidation interval, and the panel's 404 to the `off` ends that call.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LSPD, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import type { StubExports } from '../server/integrations/support/sim-integrations.js';
import { STUB_RESOURCES } from '../server/integrations/support/stub-resources.js';
import { bridgeOf, changeDuty } from './support/bridge-exports.js';
import { PRINCIPAL_ACES } from './support/supervisors.js';
import { startWorld, type World } from './support/world.js';

const DUTY_PERKS = join(import.meta.dirname, 'fixtures', 'duty_perks');
const INTERVAL_MS = 300_000;
const ALEX_ACCOUNT = `bridge.account.chat:${TWO_DEPARTMENTS}`;

type Esx = Omit<StubExports, 'job'> & { job(src: number): { name: string; grade: number } | null };

describe('a chat account the panel deletes while its player is on duty', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  it('goes off duty within one interval: principals, counts, state bag, export, job and events follow', async () => {
    world = await startWorld({
      clock: 'virtual',
      config: "Config.AcePermissions = true\nConfig.Integrations.JobFramework = 'esx'",
      aces: PRINCIPAL_ACES,
      resources: [STUB_RESOURCES.esx, DUTY_PERKS],
    });
    const { sim } = world;
    const esx = () => sim.exports.es_extended as unknown as Esx;
    const perks = () => sim.exports.duty_perks as unknown as { allowed(src: number, object: string): boolean };
    const server = () => sim.exports.bridge as unknown as { GetPlayerDuty(src: number): unknown };
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    esx().loadPlayer(alex.id, 'char1:0123456789abcdef');
    expect(await changeDuty(sim, alex, true, 0)).toMatchObject({ ok: true, departmentId: LSPD.id });
    expect(await changeDuty(sim, jamie, true, 0)).toMatchObject({ ok: true });
    const since = sim.now();
    expect(sim.principalsOf(alex.id)).toEqual([
      ALEX_ACCOUNT,
      'bridge.lspd',
      `bridge.lspd.${LSPD.sergeant}`,
      'bridge.onduty',
    ]);
    expect(esx().job(alex.id)).toMatchObject({ name: 'lspd' });
    expect(sim.stateBag('global')['bridge:onDutyCount']).toEqual({ lspd: 1, safr: 1, total: 2 });

    // Jamie has no ESX character: the warning that says so is not this test's.
    const consoleMark = sim.console.length;
    expect(world.panel.controls.deleteUser(TWO_DEPARTMENTS)).toMatchObject({ user: { chatId: TWO_DEPARTMENTS } });
    await sim.advance(INTERVAL_MS - 10_000);
    expect(bridgeOf(alex).IsPlayerOnDuty()).toBe(true);
    await sim.until(() => !bridgeOf(alex).IsPlayerOnDuty(), 30_000, 'off duty');
    // One interval plus the panel's answer and a few server frames.
    expect(sim.now() - since).toBeLessThanOrEqual(INTERVAL_MS + 2_000);
    await sim.settle();

    expect(sim.principalsOf(alex.id)).toEqual([]);
    expect(perks().allowed(alex.id, 'command.spikestrip')).toBe(false);
    expect(sim.stateBag('global')['bridge:onDutyCount']).toEqual({ safr: 1, total: 1 });
    expect(alex.stateBag()['bridge:duty']).toMatchObject({ onDuty: false, departmentId: null, departmentSlug: null });
    expect(server().GetPlayerDuty(alex.id)).toMatchObject({ onDuty: false, departmentId: null });
    expect(esx().job(alex.id)).toMatchObject({ name: 'unemployed', grade: 0 });
    expect(world.eventArgs('bridge:client:offDuty', alex)).toEqual([
      [{ departmentId: LSPD.id, reason: 'account_removed' }],
    ]);
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[alex.id, 'account_removed', false]]);
    expect(alex.notifications.map((notification) => notification.text)).toContain(
      'You were taken off duty: the panel no longer knows your chat account.',
    );
    // Jamie's duty is not touched.
    expect(bridgeOf(jamie).IsPlayerOnDuty()).toBe(true);

    // The panel's 404 to the `off` is its end: never sent again, nothing kept, no warning or error.
    await sim.advance(30 * 60_000);
    expect(world.requests().filter((request) => request.startsWith('POST'))).toEqual([
      'POST /api/leo/duty/on 200',
      'POST /api/leo/duty/on 200',
      'POST /api/leo/duty/off 404',
    ]);
    const lines = sim.console.slice(consoleMark).map((line) => line.text);
    expect(lines.filter((line) => /^(WARN|ERROR)/.test(line))).toEqual([]);
    expect(lines.filter((line) => line.includes('is off duty (account_removed)'))).toHaveLength(1);
  });
});
