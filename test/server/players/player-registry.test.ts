// An account's sessions are found without a walk over every player online: a server of 2048 refreshes profiles one
// account at a time, and a walk per refresh made the on-duty revalidation cost 2048 checks each (bench `--only idle`).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALEX, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { population } from '../../../bench/support/population.js';
import { PlayerRegistry } from '../../../server/kernel/player-registry.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse } from '../support/virtual-runtime.js';

const mock = useMockPanel();
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the players the bridge knows', () => {
  it("list an account's sessions by its chat id, as they come and go", () => {
    const players = new PlayerRegistry();
    players.add(7, 'Alex', ['license:a', 'chat:284619375016482817']);
    players.add(8, 'Jamie', ['chat:1039284756102938475']);
    players.add(9, 'Alex again', ['license:b', 'chat:284619375016482817']);
    players.add(10, 'Nobody', ['license:c']);
    expect(players.sessionsOf('284619375016482817').map((session) => session.src)).toEqual([7, 9]);
    players.remove(7);
    expect(players.sessionsOf('284619375016482817').map((session) => session.src)).toEqual([9]);
    players.remove(9);
    expect(players.sessionsOf('284619375016482817')).toEqual([]);
    expect(players.size).toBe(2);
  });

  it('a profile fetched again reaches its account’s sessions without a walk over every player online', async () => {
    // Players the panel does not know are sessions all the same.
    const users = population(40);
    const running = await startBridge(mock.panel);
    for (const [index, member] of users.members.entries()) running.port.join(100 + index, member.player);
    await connect(running, 7, ALEX);
    await elapse(30_000);
    const walks = vi.spyOn(PlayerRegistry.prototype, 'all');
    const before = running.port.sentTo(7, PUBLIC_EVENTS.profile).length;
    void running.bridge.profiles.refreshInBackground(TWO_DEPARTMENTS, 'waiting');
    await elapse(1000);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).length).toBe(before + 1);
    expect(walks).not.toHaveBeenCalled();
  });
});
