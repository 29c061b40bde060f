import { describe, expect, it } from 'vitest';
import { ALEX, LSPD, playerWith, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import type { FakePlayer } from '../../../bench/support/fake-server-port.js';
import { connect, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const CYCLES = 120;

/** Every third player has no chat account, the others one the panel does not know, every tenth is Alex. */
const playerOf = (cycle: number): FakePlayer => {
  if (cycle % 10 === 0) return ALEX;
  if (cycle % 3 === 0)
    return { name: `Guest ${cycle}`, identifiers: [`license:${cycle.toString(16).padStart(12, '0')}`] };
  return playerWith(`7${String(cycle).padStart(17, '0')}`, `Player ${cycle}`);
};

describe('players who left', () => {
  it('leave nothing behind: after many connect/drop cycles with duty and refreshes, every per-player entry is gone', async () => {
    const running = await startBridge(mock.panel);

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const src = 100 + cycle;
      await connect(running, src, playerOf(cycle));
      running.port.requestDuty(src, 1, true, LSPD.id);
      running.port.requestRefresh(src);
      running.port.requestRevalidate(src);
      await settle();
      running.port.drop(src);
    }
    await elapse(10 * 60_000);
    await settle();

    const footprint = running.bridge.footprint();
    expect(footprint).toEqual(Object.fromEntries(Object.keys(footprint).map((name) => [name, 0])));
    expect(Object.keys(footprint)).toEqual(
      expect.arrayContaining([
        'players',
        'duty.lanes',
        'duty.states',
        'outbox.lanes',
        'clientEventLimits',
        'revalidationAsks',
        'stateBagGuard',
      ]),
    );
    // Alex did go on duty and off again each time: the cycles did reach the panel.
    const sessions = mock.panel.controls.sessions(TWO_DEPARTMENTS);
    expect(sessions).toHaveLength(CYCLES / 10);
    expect(sessions.every((session) => session.endedAt !== null)).toBe(true);
  });
});
