// A server process that dies without onResourceStop (sim.kill()) and a new one on the same KVP: the duties the
// dead run left open end at the panel before anyone does anything. The orderly restart is the counterpart.
import { afterEach, describe, expect, it } from 'vitest';
import { population } from '../../bench/support/population.js';
import type { DutyOutcome } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

const OFFICERS = 12;
const CRASH_LINE = 'the last run ended without stopping';

describe('a server that dies without stopping the bridge', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const officers = population(OFFICERS, { memberEvery: 1 });
  const openSessions = () => world.panel.controls.sessions().filter((session) => session.endedAt === null);
  const crashLines = () => world.sim.console.filter((line) => line.text.includes(CRASH_LINE));

  async function goOnDuty(player: SimPlayer): Promise<DutyOutcome> {
    const outcomes: DutyOutcome[] = [];
    const options = bridgeOf(player).GetDutyOptions() as { departments: Array<{ setActive(): boolean }> };
    options.departments[0]?.setActive();
    bridgeOf(player).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
    await world.sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
    return outcomes[0] as DutyOutcome;
  }

  async function everyoneOnDuty(): Promise<void> {
    for (const member of officers.members) {
      const player = await world.join(member.chatId, member.player.name);
      expect(await goOnDuty(player)).toMatchObject({ ok: true, onDuty: true });
    }
    await world.sim.settle();
    expect(openSessions()).toHaveLength(OFFICERS);
  }

  it('has every open duty ended at the panel by the next server, before any player joins', async () => {
    world = await startWorld({ clock: 'virtual', panel: { data: officers.data } });
    await everyoneOnDuty();
    const opened = world.panel.controls.sessions().map((session) => session.id);

    await world.sim.kill();
    await world.sim.advance(60_000);
    expect(openSessions()).toHaveLength(OFFICERS);
    await world.sim.restart();
    await world.sim.until(() => openSessions().length === 0, 30_000, 'the open duties to end');

    expect(world.sim.players).toEqual([]);
    const ended = world.panel.controls.sessions().filter((s) => opened.includes(s.id) && s.endedBy === 'off');
    expect(`duties ended after a crash: ${ended.length} of ${opened.length}`).toBe(
      `duties ended after a crash: ${OFFICERS} of ${OFFICERS}`,
    );
    expect(crashLines().map((line) => line.text)).toEqual([
      `INFO: the last run ended without stopping (a crash?) and left ${OFFICERS} duty(ies) open at the panel; they are ended now`,
    ]);
  });

  it('keeps the offs while the panel is down after the crash and delivers every one when it is back', async () => {
    world = await startWorld({ clock: 'virtual', panel: { data: officers.data } });
    await everyoneOnDuty();

    await world.sim.kill();
    world.panel.controls.setOutage({ mode: 'reset' });
    await world.sim.restart();
    await world.sim.advance(120_000);
    expect(crashLines()).toHaveLength(1);
    expect(openSessions()).toHaveLength(OFFICERS);

    // Down so long that the server is killed again: the offs are in the outbox by now, not in the ledger.
    await world.sim.kill();
    world.panel.controls.clearFaults();
    await world.sim.restart();
    await world.sim.until(() => openSessions().length === 0, 60_000, 'the kept offs to be delivered');

    expect(crashLines()).toHaveLength(1);
    expect(world.panel.controls.sessions().map((session) => session.endedBy)).toEqual(
      Array.from({ length: OFFICERS }, () => 'off'),
    );
  });

  it('an orderly restart, as before: the stop takes everyone off duty, no crash is told', async () => {
    world = await startWorld({ clock: 'virtual', panel: { data: officers.data } });
    await everyoneOnDuty();

    await world.sim.restart();
    await world.sim.until(() => openSessions().length === 0, 30_000, 'the duties to end');

    expect(world.sim.eventsNamed('playerDropped')).toHaveLength(OFFICERS);
    expect(crashLines()).toEqual([]);
    expect(world.panel.controls.sessions().map((session) => session.endedBy)).toEqual(
      Array.from({ length: OFFICERS }, () => 'off'),
    );
  });
});
