// State bags: GlobalState, Player(src).state, LocalPlayer.state and change handlers (fivem-runtime.md §7).
import { afterEach, describe, expect, it } from 'vitest';
import {
  consumerDir,
  coreDir,
  entries,
  logOf,
  manifest,
  startFixtures,
  tempResource,
} from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

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

// A resource whose client writes its own bag as a cheat would (Lua and JS, both spellings), and whose server records
// what the change handlers saw: the 4th argument and the value stored at that moment.
const cheatResource = () =>
  tempResource('bag_writer', {
    'fxmanifest.lua': manifest("client_scripts { 'client.lua', 'client.js' }\nserver_script 'server.lua'"),
    'client.lua': `
exports('LuaLocalPlayer', function(key, value) LocalPlayer.state:set(key, value, true) end)
exports('LuaOwnPlayer', function(key, value) Player(GetPlayerServerId(PlayerId())).state:set(key, value, true) end)
exports('LuaOtherPlayer', function(id, key, value) Player(id).state:set(key, value, true) end)
exports('LuaRead', function(id, key) return Player(id).state[key] end)
`,
    'client.js': `
exports('JsLocalPlayer', (key, value) => LocalPlayer.state.set(key, value, true));
exports('JsOwnPlayer', (key, value) => Player(GetPlayerServerId(PlayerId())).state.set(key, value, true));
`,
    'server.lua': `
local seen = {}
AddStateBagChangeHandler('forged', nil, function(bag, key, value, source, replicated)
  local id = GetPlayerFromStateBagName(bag)
  seen[#seen + 1] = { bag = bag, value = value, source = source, replicated = replicated, stored = Player(id).state.forged }
end)
exports('Seen', function() return seen end)
`,
  });

describe('client → server without sv_stateBagStrictMode (a cheating client)', () => {
  it('reaches the server’s handlers before the store, with the client’s slot id as the 4th argument', async () => {
    sim = await startFixtures({ resources: [coreDir, consumerDir, cheatResource()] });
    const [a, b] = [await sim.join({ name: 'A' }), await sim.join({ name: 'B' })];
    b.exports.bag_writer.LuaLocalPlayer('forged', 'lua local');
    await sim.settle();
    b.exports.bag_writer.LuaOwnPlayer('forged', { onDuty: true });
    await sim.settle();
    b.exports.bag_writer.JsLocalPlayer('forged', 'js local');
    await sim.settle();
    b.exports.bag_writer.JsOwnPlayer('forged', 'js own');
    await sim.settle();
    const bag = `player:${b.id}`;
    // Player ids count from 1, slots from 0: B is id 2 in slot 1.
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(sim.exports.bag_writer.Seen()).toEqual([
      { bag, value: 'lua local', source: 1, replicated: true },
      { bag, value: { onDuty: true }, source: 1, replicated: true, stored: 'lua local' },
      { bag, value: 'js local', source: 1, replicated: true, stored: { onDuty: true } },
      { bag, value: 'js own', source: 1, replicated: true, stored: 'js local' },
    ]);
    expect(sim.stateBag(bag)).toEqual({ forged: 'js own' });
  });

  it('re-replicates an accepted client set to the clients that have the player in scope, and only to them', async () => {
    sim = await startFixtures({ resources: [coreDir, consumerDir, cheatResource()] });
    const [a, b, c] = [await sim.join({ name: 'A' }), await sim.join({ name: 'B' }), await sim.join({ name: 'C' })];
    sim.setInScope(b, a);
    await sim.settle();
    a.exports.bag_writer.LuaLocalPlayer('forged', 'seen by B');
    await sim.settle();
    expect(sim.stateBag(`player:${a.id}`)).toEqual({ forged: 'seen by B' });
    expect(b.stateBag(`player:${a.id}`)).toEqual({ forged: 'seen by B' });
    expect(b.exports.bag_writer.LuaRead(a.id, 'forged')).toBe('seen by B');
    expect(c.stateBag(`player:${a.id}`)).toEqual({});
    // The server's own sets follow the same routing.
    sim.exports.sim_core.SetPlayerState(a.id, 'forged', 'restored', true);
    await sim.settle();
    expect([a, b].map((p) => p.stateBag(`player:${a.id}`))).toEqual([{ forged: 'restored' }, { forged: 'restored' }]);
    expect(c.stateBag(`player:${a.id}`)).toEqual({});
  });

  it('sends a player’s whole bag to a client the player comes into scope of, and stops when they leave it', async () => {
    sim = await startFixtures();
    const [a, b] = [await sim.join({ name: 'A' }), await sim.join({ name: 'B' })];
    sim.exports.sim_core.SetPlayerState(a.id, 'duty', 'before', true);
    await sim.settle();
    expect(b.stateBag(`player:${a.id}`)).toEqual({});
    sim.setInScope(b, a);
    await sim.settle();
    expect(b.stateBag(`player:${a.id}`)).toEqual({ duty: 'before' });
    sim.setInScope(b, a, false);
    sim.exports.sim_core.SetPlayerState(a.id, 'duty', 'after', true);
    await sim.settle();
    expect(b.stateBag(`player:${a.id}`)).toEqual({ duty: 'before' });
    a.drop();
    await sim.settle();
    expect(b.stateBag(`player:${a.id}`)).toEqual({});
  });

  it('never lets a client write another player’s bag, even one it has in scope', async () => {
    sim = await startFixtures({ resources: [coreDir, consumerDir, cheatResource()] });
    const [a, b] = [await sim.join({ name: 'A' }), await sim.join({ name: 'B' })];
    sim.setInScope(b, a);
    await sim.settle();
    b.exports.bag_writer.LuaOtherPlayer(a.id, 'forged', 'by B');
    await sim.settle();
    expect(sim.stateBag(`player:${a.id}`)).toEqual({});
    expect(a.stateBag()).toEqual({});
    expect(sim.exports.bag_writer.Seen()).toEqual([]);
  });

  it('drops updates beyond 75/s (burst 125) with one warning, and the player beyond the flood limit (burst 175)', async () => {
    sim = await startFixtures({ resources: [coreDir, consumerDir, cheatResource()] });
    const [steady, flood] = [await sim.join({ name: 'Steady' }), await sim.join({ name: 'Flood' })];
    for (let i = 0; i < 150; i++) steady.exports.sim_core.SetOwnState('n', i, true);
    await sim.settle();
    expect(sim.stateBag(`player:${steady.id}`)).toEqual({ n: 124 });
    expect(sim.console.filter((l) => l.text.includes('sent too many state bag updates'))).toHaveLength(1);
    expect(steady.connected).toBe(true);
    // A second later the bucket has refilled by 75 (and by a few more for the frames settle() ran).
    await sim.advance(1000);
    for (let i = 0; i < 100; i++) steady.exports.sim_core.SetOwnState('n', 1000 + i, true);
    await sim.settle();
    const { n } = sim.stateBag(`player:${steady.id}`) as { n: number };
    expect(n - 1000 + 1).toBeGreaterThanOrEqual(75);
    expect(n - 1000 + 1).toBeLessThan(85);

    for (let i = 0; i < 200; i++) flood.exports.sim_core.SetOwnState('n', i, true);
    await sim.settle();
    expect(flood.connected).toBe(false);
    expect(
      sim.console.filter((l) => l.text.includes('got dropped for sending too many state bag value updates')),
    ).toHaveLength(1);
    expect(sim.eventsNamed('playerDropped').at(-1)?.args).toEqual([
      'Reliable state bag packet overflow.',
      '__cfx_internal:server',
      8,
    ]);
    expect(steady.connected).toBe(true);
  });
});
