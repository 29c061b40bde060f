// resmon on an idle server: FXServer calls the bridge's tick every frame, and timer.js returns at once only while no
// timer waits; each waiting timer is walked in every frame (citizen/scripting/v8/timer.js, onTick). So what the
// bridge keeps waiting while nobody acts is what it costs per frame.
import { afterEach, describe, expect, it } from 'vitest';
import { population } from '../../bench/support/population.js';
import { changeDuty } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

const OFFICERS = 8;

describe('the bridge on an idle server', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  it('keeps one timer waiting for the revalidation of every player on duty, not one per player', async () => {
    const officers = population(OFFICERS, { memberEvery: 1 });
    world = await startWorld({ clock: 'virtual', panel: { data: officers.data } });
    for (const member of officers.members) {
      const player = await world.join(member.chatId, member.player.name);
      expect(await changeDuty(world.sim, player, true)).toMatchObject({ ok: true, onDuty: true });
    }
    // What going on duty left waiting (each `on`'s deadline) has run out by then.
    await world.sim.advance(60_000);
    expect(world.sim.scriptTimers('bridge').pendingTimers).toBe(1);

    // The revalidation still comes, once per player and interval (Config.RefreshIntervalMs, 5 minutes).
    const gets = () => world.requests().filter((request) => request.startsWith('GET')).length;
    const before = gets();
    await world.sim.advance(5 * 60_000);
    expect(gets() - before).toBe(OFFICERS);
    expect(world.sim.scriptTimers('bridge').pendingTimers).toBe(1);
  });

  it('keeps no timer at all with nobody on duty: its tick returns at once in every frame', async () => {
    const officers = population(OFFICERS, { memberEvery: 1 });
    world = await startWorld({ clock: 'virtual', panel: { data: officers.data } });
    for (const member of officers.members) await world.join(member.chatId, member.player.name);
    await world.sim.advance(60_000);
    const before = world.sim.scriptTimers('bridge');
    await world.sim.advance(60_000);
    const after = world.sim.scriptTimers('bridge');
    expect(after.pendingTimers).toBe(0);
    expect(after.ticksWithWork - before.ticksWithWork).toBe(0);
  });
});
