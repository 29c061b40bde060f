// Issue 12, item 8: a player name never blocks duty. FiveM takes the name from the player's own client, so it can
// be anything: the panel's contract accepts 1 to 255 characters. The simulated player goes on duty against the mock
// panel over loopback HTTP with the name their client gave.
import { afterEach, describe, expect, it } from 'vitest';
import type { DutyOutcome } from '../../shared/events.js';
import { ONE_DEPARTMENT } from '../mock-panel/support/demo-users.js';
import { bridgeOf } from './support/bridge-exports.js';
import { startWorld, type World } from './support/world.js';

let world: World;
afterEach(async () => {
  await world?.close();
});

async function goOnDutyAs(name: string): Promise<DutyOutcome> {
  const player = await world.join(ONE_DEPARTMENT, name);
  bridgeOf(player).GetDutyOptions().departments[0]?.setActive();
  const outcomes: DutyOutcome[] = [];
  bridgeOf(player).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
  await world.sim.until(() => outcomes.length > 0, 15_000, 'the duty outcome');
  return outcomes[0] as DutyOutcome;
}

describe('a player name the panel would refuse', () => {
  it.each([
    ['256 characters', 'N'.repeat(256), 'N'.repeat(255)],
    ['empty', '', null],
    ['only spaces and control characters', ' \u0000\t\u001b[31m \u009f ', '[31m'],
    ['a surrogate pair across 255 code units', `${'a'.repeat(254)}😀`, 'a'.repeat(254)],
    ['surrounded by spaces, with a newline', '  Officer\nDoe  ', 'OfficerDoe'],
  ])(
    '%s: the player goes on duty, and the panel records the name it accepts',
    async (_label, name, recorded) => {
      world = await startWorld({ clock: 'virtual' });

      const outcome = await goOnDutyAs(name);

      expect(outcome).toEqual(expect.objectContaining({ ok: true, onDuty: true }));
      const sessions = world.panel.controls.sessions(ONE_DEPARTMENT);
      expect(sessions).toHaveLength(1);
      expect(sessions[0]?.playerName).toBe(recorded);
      expect(world.requests().filter((request) => request.startsWith('POST'))).toEqual(['POST /api/leo/duty/on 200']);
      world.sim.assertNoErrors();
    },
    30_000,
  );
});
