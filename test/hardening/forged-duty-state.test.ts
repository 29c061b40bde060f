// Forged duty on a state bag (issue 12, item 3): without sv_stateBagStrictMode, FiveM's default, a client may write
// its own player bag, replicated. A cheat script writes `bridge:duty`; the server must put its own value back for
// itself, for every other resource and for every client. Runs on the virtual clock with the mock panel.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DUTY_STATE_BAG_KEY, PUBLIC_EVENTS } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { bridgeOf } from '../e2e/support/bridge-exports.js';
import { startWorld, type World } from '../e2e/support/world.js';
import { BCSO, LSPD, NO_DEPARTMENTS, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';

const DUTY_CHEAT = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'duty_cheat');

interface Cheat {
  forgeDuty(duty: unknown): void;
  forgeDutyAsPlayer(duty: unknown): void;
  eraseDuty(): void;
  dutyOf(id: number): unknown;
}
const cheatOf = (player: SimPlayer) => player.exports.duty_cheat as unknown as Cheat;
const onDutyAs = (departmentId: number, departmentSlug: string, rankId: number) => ({
  onDuty: true,
  departmentId,
  departmentSlug,
  rankId,
  since: '2025-06-01T20:00:00.000Z',
});

describe('a client that writes bridge:duty on its own state bag', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world?.close();
  });

  async function goOnDuty(player: SimPlayer) {
    const outcomes: unknown[] = [];
    const options = bridgeOf(player).GetDutyOptions() as unknown as { departments: Array<{ setActive(): void }> };
    options.departments[0]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length === 1, 15_000, 'the duty outcome');
    await world.sim.settle();
  }

  it('gets the bridge’s value back on the server, in other resources and on every client, within a frame', async () => {
    world = await startWorld({ clock: 'virtual', resources: [DUTY_CHEAT] });
    const { sim } = world;
    const civilian = await world.join(NO_DEPARTMENTS, 'Civilian');
    const officer = await world.join(TWO_DEPARTMENTS, 'Officer');
    const observer = await world.join(NO_DEPARTMENTS, 'Observer');
    await goOnDuty(officer);
    sim.setInScope(observer, civilian);
    sim.setInScope(observer, officer);
    await sim.settle();

    const serverDuty = (p: SimPlayer) => sim.stateBag(`player:${p.id}`)[DUTY_STATE_BAG_KEY];
    const truth = new Map([civilian, officer].map((p) => [p.id, serverDuty(p)]));
    expect(truth.get(civilian.id)).toMatchObject({ onDuty: false });
    expect(truth.get(officer.id)).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: LSPD.sergeant });
    const sessionsBefore = world.panel.controls.sessions(TWO_DEPARTMENTS);

    const burst = (c: Cheat) => {
      // Within FXServer's burst of 125 state bag packets, so all of them reach the server.
      for (let i = 0; i < 100; i++) c.forgeDuty({ ...onDutyAs(LSPD.id, 'lspd', LSPD.lieutenant), since: i });
    };
    const forgeries: Array<[SimPlayer, (cheat: Cheat) => void]> = [
      [civilian, (c) => c.forgeDuty(onDutyAs(LSPD.id, 'lspd', LSPD.lieutenant))],
      [civilian, burst],
      [civilian, (c) => c.forgeDutyAsPlayer(onDutyAs(BCSO.id, 'bcso', BCSO.deputy))],
      [civilian, (c) => c.forgeDuty(true)],
      [civilian, (c) => c.eraseDuty()],
      [officer, (c) => c.forgeDuty({ onDuty: false, departmentId: null, departmentSlug: null, rankId: null })],
      [officer, (c) => c.forgeDutyAsPlayer(onDutyAs(BCSO.id, 'bcso', BCSO.deputy))],
      [officer, (c) => c.forgeDuty(onDutyAs(LSPD.id, 'lspd', LSPD.lieutenant))],
      [officer, (c) => c.eraseDuty()],
    ];
    let restored = 0;
    let slowestFrames = 0;
    for (const [cheater, forge] of forgeries) {
      forge(cheatOf(cheater));
      // The write reaches the server on its next frame; count frames until the bridge's value is back.
      let frames = 0;
      do {
        await sim.tick(1);
        frames++;
      } while (frames < 10 && !isDeepEqual(serverDuty(cheater), truth.get(cheater.id)));
      await sim.settle();
      const views = [
        serverDuty(cheater),
        sim.exports.duty_cheat.dutyOf(cheater.id),
        cheater.stateBag()[DUTY_STATE_BAG_KEY],
        observer.stateBag(`player:${cheater.id}`)[DUTY_STATE_BAG_KEY],
      ];
      const luaView = withoutNulls(truth.get(cheater.id));
      expect(views).toEqual([truth.get(cheater.id), luaView, truth.get(cheater.id), truth.get(cheater.id)]);
      expect(cheatOf(observer).dutyOf(cheater.id)).toEqual(luaView);
      restored++;
      slowestFrames = Math.max(slowestFrames, frames);
    }

    // The bridge's own answers never followed the forgery.
    expect(bridgeOf(civilian).IsPlayerOnDuty()).toBe(false);
    expect(bridgeOf(officer).IsPlayerOnDuty()).toBe(true);
    expect(sim.exports.bridge.IsPlayerOnDuty(civilian.id)).toBe(false);
    expect(world.eventArgs(PUBLIC_EVENTS.playerOnDuty).map(([src]) => src)).toEqual([officer.id]);
    expect(world.panel.controls.sessions(NO_DEPARTMENTS)).toEqual([]);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual(sessionsBefore);
    // One WARN per cheating player, however often they write.
    const warnings = sim.console.filter((l) => l.text.includes('WARN') && l.text.includes(DUTY_STATE_BAG_KEY));
    expect(warnings.map((l) => l.text)).toEqual([
      expect.stringContaining(`player ${civilian.id}`),
      expect.stringContaining(`player ${officer.id}`),
    ]);
    console.log(
      `forged writes restored: ${restored} of ${forgeries.length} (${forgeries.length + 99} writes, one a burst of 100); ` +
        `slowest restore ${slowestFrames} server frame(s); ` +
        `${warnings.length} WARN lines for 2 cheating players`,
    );
    expect(slowestFrames).toBeLessThanOrEqual(2);
  });

  it('never reaches the server under setr sv_stateBagStrictMode true: the client refuses, nothing is put back', async () => {
    world = await startWorld({ clock: 'virtual', resources: [DUTY_CHEAT] });
    const { sim } = world;
    sim.command('setr sv_stateBagStrictMode true');
    const civilian = await world.join(NO_DEPARTMENTS, 'Civilian');
    const before = sim.stateBag(`player:${civilian.id}`)[DUTY_STATE_BAG_KEY];
    expect(before).toMatchObject({ onDuty: false });

    cheatOf(civilian).forgeDuty(onDutyAs(LSPD.id, 'lspd', LSPD.lieutenant));
    await sim.tick(1);
    expect(sim.stateBag(`player:${civilian.id}`)[DUTY_STATE_BAG_KEY]).toEqual(before);
    await sim.settle();
    expect(sim.stateBag(`player:${civilian.id}`)[DUTY_STATE_BAG_KEY]).toEqual(before);
    expect(world.consoleText()).toContain("StateBags can't be modified from the client");
    // The bridge saw no foreign write, so it had nothing to put back and nothing to report.
    expect(world.consoleText()).not.toContain(`${DUTY_STATE_BAG_KEY} on their state bag`);
    // Only the cheater's own client believes its local write.
    expect(cheatOf(civilian).dutyOf(civilian.id)).toMatchObject({ onDuty: true });
    expect(bridgeOf(civilian).IsPlayerOnDuty()).toBe(false);
  });
});

function isDeepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A Lua table read back has no `nil` fields. */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}
