// The whole loop in one go: a server with the fixture pair, 50 players, events and exports both ways on both
// sides, a shutdown, and a new server on the same KVP directory. How long it takes is the bench's business
// (`npm run bench -- --only micro`): a wall-clock bound here fails on a loaded machine.
import { expect, it } from 'vitest';
import { entries, joinOfficers, logOf, startFixtures, tempDir } from '../../bench/support/sim-fixtures.js';

it('runs 50 players through events, exports, state bags and a restart with KVP intact', async () => {
  const kvpDir = tempDir('sim-scenario-');
  const sim = await startFixtures({ kvpDir });
  const core = () => sim.exports.sim_core;
  const consumer = () => sim.exports.sim_consumer;
  core().Kvp();

  const players = await joinOfficers(sim, 50);
  expect(players.map((p) => p.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  expect((core().Players() as string[]).length).toBe(50);

  // Client → server → client, through JS and through Lua.
  for (const p of players) {
    p.emitNet('core:ping', p.id);
    p.emitNet('consumer:ping', p.id * 10);
  }
  await sim.settle();
  for (const p of players) {
    expect(p.received('core:pong').map((e) => e.args)).toEqual([[p.id + 1]]);
    expect(p.received('consumer:pong').map((e) => e.args)).toEqual([[p.id * 10 + 1]]);
  }
  expect(entries(logOf(sim, 'sim_core'), 'ping')).toHaveLength(50);
  expect(entries(logOf(sim, 'sim_consumer'), 'ping')).toHaveLength(50);

  // Exports on every client, JS and Lua, and on the server both ways.
  for (const p of players) {
    expect(p.exports.sim_core.ServerId()).toBe(p.id);
    expect(p.exports.sim_consumer.CoreServerId()).toBe(p.id);
  }
  expect(await sim.resolve(consumer().AwaitJs(5))).toEqual([10, false, expect.stringContaining('async nope')]);
  expect(await sim.resolve(core().CallLuaExports())).toMatchObject({
    slow: 42,
    consumerAdd: 5,
    consumerMulti: [1, 2, 3],
  });

  // Server state reaches each player; a broadcast reaches everyone.
  for (const p of players) core().SetPlayerState(p.id, 'duty', { department: 'lspd', on: p.id % 2 === 0 }, true);
  players[0]?.emitNet('core:broadcast', 'shift change');
  await sim.settle();
  for (const p of players) {
    expect(p.stateBag().duty).toEqual({ department: 'lspd', on: p.id % 2 === 0 });
    expect(p.notifications.map((n) => n.text)).toEqual(['shift change']);
  }

  // A new server process on the same KVP directory: everyone is dropped, resources stop, data stays.
  await sim.restart();
  expect(sim.eventsNamed('playerDropped').filter((e) => e.args[0] === 'Server shutting down')).toHaveLength(50);
  expect(sim.players).toEqual([]);
  expect(entries(logOf(sim, 'sim_core'), 'starts')).toEqual([{ kind: 'starts', starts: 2 }]);
  expect(core().Kvp()).toMatchObject({ keys: ['alpha:1', 'alpha:2'], starts: 2 });
  const again = await sim.join({ name: 'Back' });
  expect(again.id).toBe(1);

  sim.assertNoErrors();
  await sim.stop();
});
