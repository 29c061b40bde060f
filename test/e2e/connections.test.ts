import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { LSPD, NO_DEPARTMENTS, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

describe('the connection to the panel', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  it('keeps connections alive: a series of panel calls reuses one pooled connection', async () => {
    world = await startWorld();
    const players = [
      await world.join(TWO_DEPARTMENTS),
      await world.join(ONE_DEPARTMENT),
      await world.join(NO_DEPARTMENTS),
    ];
    const alex = players[0] as SimPlayer;
    for (let round = 0; round < 2; round++) {
      for (const status of [true, false]) {
        const outcomes: unknown[] = [];
        (
          bridgeOf(alex).GetDutyOptions() as { departments: Array<{ setActive: () => void }> }
        ).departments[0]?.setActive();
        bridgeOf(alex).UpdatePlayerDuty(status, (outcome: unknown) => outcomes.push(outcome));
        const before = world.requests().length;
        await world.sim.until(() => outcomes.length > 0, 10_000, 'the outcome');
        await world.sim.until(() => world.requests().length > before, 10_000, 'the duty call');
      }
    }
    await world.sim.until(() => world.requests().length >= 7, 10_000, 'every call');
    expect(world.requests().filter((r) => r.startsWith('POST'))).toHaveLength(4);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual(
      Array(2).fill([alex.id, LSPD.id, LSPD.sergeant, false]),
    );
    // Eight requests (the probe, three profiles, four duty calls), one after another, over a single connection.
    expect(world.server.connectionsAccepted).toBe(1);
  });
});
