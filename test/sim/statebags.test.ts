// State bags: GlobalState, Player(src).state, LocalPlayer.state and change handlers (fivem-runtime.md §7).
import { afterEach, describe, expect, it } from 'vitest';
import type { Sim } from './index.js';
import { entries, logOf, startFixtures } from './support.js';

let sim: Sim;
afterEach(() => sim?.stop());

describe('server → clients', () => {
  it('replicates GlobalState to every client on its next frame (read from JS and Lua)', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    expect(p.exports.sim_core.Bags()).toMatchObject({ coreStarted: true });
    // `return nil, true` from Lua: the hole makes the result list a map.
    expect(p.exports.sim_consumer.OwnState('duty')).toEqual({ 2: true });
    sim.exports.sim_consumer.SetGlobal('motd', 'from lua');
    expect(p.stateBag('global').motd).toBeUndefined();
    await sim.settle();
    expect(p.stateBag('global').motd).toBe('from lua');
    const clientLog = p.exports.sim_core.GetLog() as Record<string, unknown>[];
    expect(entries(clientLog, 'globalChanged')).toEqual([{ kind: 'globalChanged', key: 'motd', value: 'from lua' }]);
  });

  it('replicates Player(src).state only to that player, and only when the set says so', async () => {
    sim = await startFixtures();
    const [a, b] = [await sim.join({ name: 'A' }), await sim.join({ name: 'B' })];
    sim.exports.sim_core.SetPlayerState(a.id, 'duty', true, true);
    sim.exports.sim_consumer.SetPlayerState(a.id, 'rank', 'sergeant', true);
    sim.exports.sim_core.SetPlayerStateNoFlag(a.id, 'secret', 'server only');
    await sim.settle();
    expect(sim.stateBag(`player:${a.id}`)).toEqual({ duty: true, rank: 'sergeant', secret: 'server only' });
    expect(a.stateBag()).toEqual({ duty: true, rank: 'sergeant' });
    expect(b.stateBag(`player:${a.id}`)).toEqual({});
    expect(a.exports.sim_core.Bags()).toMatchObject({ duty: true });
    expect(a.exports.sim_consumer.OwnState('rank')).toEqual(['sergeant', true]);
  });

  it('runs change handlers before the value is stored (JS and Lua), and nil deletes', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    sim.exports.sim_core.SetPlayerState(p.id, 'duty', 'on', true);
    sim.exports.sim_core.SetPlayerState(p.id, 'duty', 'off', true);
    sim.exports.sim_consumer.SetPlayerState(p.id, 'duty', null, true);
    expect(entries(logOf(sim, 'sim_core'), 'bag')).toEqual([
      { kind: 'bag', bag: `player:${p.id}`, key: 'duty', value: 'on', replicated: true, stored: null },
      { kind: 'bag', bag: `player:${p.id}`, key: 'duty', value: 'off', replicated: true, stored: 'on' },
      { kind: 'bag', bag: `player:${p.id}`, key: 'duty', value: null, replicated: true, stored: 'off' },
    ]);
    expect(entries(logOf(sim, 'sim_consumer'), 'bag').map((e) => e.value)).toEqual(['on', 'off', undefined]);
    await sim.settle();
    expect(sim.stateBag(`player:${p.id}`)).toEqual({});
    expect(p.stateBag()).toEqual({});
  });

  it('stops calling a handler once it is removed', async () => {
    sim = await startFixtures();
    sim.exports.sim_consumer.SetGlobal('removable', 1);
    sim.exports.sim_consumer.RemoveBagHandler();
    sim.exports.sim_consumer.SetGlobal('removable', 2);
    expect(entries(logOf(sim, 'sim_consumer'), 'removable bag handler ran')).toHaveLength(1);
  });

  it('returns a fresh copy on every read', async () => {
    sim = await startFixtures();
    expect(sim.exports.sim_core.FreshCopy()).toEqual([[1, 2], [1]]);
  });
});

describe('client → server', () => {
  it('accepts a replicated set on the player’s own bag from JS and Lua; a local set stays on the client', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.exports.sim_core.SetOwnState('duty', 'client js', true);
    p.exports.sim_consumer.SetOwnState('extra', 'client lua', true);
    p.exports.sim_core.SetOwnState('local', 'mine', false);
    expect(p.stateBag()).toEqual({ duty: 'client js', extra: 'client lua', local: 'mine' });
    await sim.settle();
    expect(sim.stateBag(`player:${p.id}`)).toEqual({ duty: 'client js', extra: 'client lua' });
    expect(entries(logOf(sim, 'sim_core'), 'bag')).toEqual([
      { kind: 'bag', bag: `player:${p.id}`, key: 'duty', value: 'client js', replicated: true, stored: null },
    ]);
  });

  it('refuses replicated client sets under sv_stateBagStrictMode', async () => {
    sim = await startFixtures({ convars: 'setr sv_stateBagStrictMode true' });
    const p = await sim.join();
    p.exports.sim_core.SetOwnState('duty', 'blocked', true);
    await sim.settle();
    expect(sim.stateBag(`player:${p.id}`)).toEqual({});
    expect(sim.console.some((l) => l.text.includes("StateBags can't be modified from the client"))).toBe(true);
  });
});
