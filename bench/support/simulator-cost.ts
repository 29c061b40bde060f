// What the simulator itself costs: the wall time test/sim's tests used to bound (a test asserts behaviour, the
// bench prints time), and the heap it keeps per player, which the micro figures take off the bridge's.
import { createSim } from '../../sim/index.js';
import { retainedPerCycle, settledHeapBytes } from './settled-heap.js';
import { joinOfficers, manifest, startFixtures, tempDir, tempResource } from './sim-fixtures.js';

export interface SimulatorCost {
  /** test/sim/scenario.test.ts: 50 players through events, exports, state bags and a restart with KVP intact. */
  fiftyPlayerScenarioMs: number;
  /** test/sim/timers.test.ts: an hour of game time with 3 players, server intervals and client Lua waits. */
  hourOfThreePlayersMs: number;
  /** A player of the bridge connecting, getting their profile and dropping (the micro section's cycles). */
  bridgeCycleMs: number;
}

async function fiftyPlayerScenario(): Promise<void> {
  const sim = await startFixtures({ kvpDir: tempDir('bench-sim-scenario-') });
  const core = () => sim.exports.sim_core;
  const consumer = () => sim.exports.sim_consumer;
  core().Kvp();
  const players = await joinOfficers(sim, 50);
  for (const p of players) {
    p.emitNet('core:ping', p.id);
    p.emitNet('consumer:ping', p.id * 10);
  }
  await sim.settle();
  for (const p of players) {
    p.exports.sim_core.ServerId();
    p.exports.sim_consumer.CoreServerId();
  }
  await sim.resolve(consumer().AwaitJs(5));
  await sim.resolve(core().CallLuaExports());
  for (const p of players) core().SetPlayerState(p.id, 'duty', { department: 'lspd', on: p.id % 2 === 0 }, true);
  players[0]?.emitNet('core:broadcast', 'shift change');
  await sim.settle();
  await sim.restart();
  core().Kvp();
  await sim.join({ name: 'Back' });
  sim.assertNoErrors();
  await sim.stop();
}

async function hourOfThreePlayers(): Promise<number> {
  const dir = tempResource('hourly', {
    'fxmanifest.lua': manifest("server_script 's.js'\nclient_script 'c.lua'"),
    's.js': 'let n = 0; exports("Count", () => n); setInterval(() => n++, 60000);',
    'c.lua':
      "local n = 0\nexports('Count', function() return n end)\nCreateThread(function() while true do Wait(60000) n = n + 1 end end)",
  });
  const sim = await startFixtures({ resources: [dir] });
  await Promise.all([sim.join(), sim.join(), sim.join()]);
  const started = performance.now();
  await sim.advance(60 * 60 * 1000);
  const ms = performance.now() - started;
  if (sim.exports.hourly.Count() !== 59) throw new Error('bench: the hour of game time did not run its intervals');
  sim.assertNoErrors();
  await sim.stop();
  return ms;
}

export async function simulatorCost(bridgeCycleMs: number): Promise<SimulatorCost> {
  const started = performance.now();
  await fiftyPlayerScenario();
  const fiftyPlayerScenarioMs = performance.now() - started;
  const hourOfThreePlayersMs = await hourOfThreePlayers();
  return { fiftyPlayerScenarioMs, hourOfThreePlayersMs, bridgeCycleMs };
}

/**
 * Heap the simulator itself keeps per connect/drop cycle, with a resource that runs nothing, measured as the
 * bridge's cycles are and printed beside their figure (nothing is taken off it). It frees a dropped player's state
 * as FXServer does (test/sim/dropped-players.test.ts), so this is about 0.
 */
export async function simulatorRetainedPerCycle(cycles: {
  warmUp: number;
  measured: number;
  parts: number;
}): Promise<number> {
  const sim = await createSim({
    resources: [tempResource('empty', { 'fxmanifest.lua': manifest('') })],
    clock: 'virtual',
    recordEvents: false,
    chat: false,
  });
  const cycle = async (index: number) => {
    const player = await sim.join({ name: `Player ${index}`, identifiers: [`license:${index % 12}`] });
    await sim.advance(100);
    player.drop();
  };
  const settled = async () => {
    await sim.advance(11_000);
    sim.clearLogs();
    return settledHeapBytes();
  };
  for (let index = 0; index < cycles.warmUp; index++) await cycle(index);
  // Measured in parts, the median taken, as the bridge's cycles are (bench/scenarios/micro.ts).
  const part = cycles.measured / cycles.parts;
  const readings = [await settled()];
  for (let index = cycles.warmUp; index < cycles.warmUp + cycles.measured; index++) {
    await cycle(index);
    if ((index - cycles.warmUp + 1) % part === 0) readings.push(await settled());
  }
  await sim.stop();
  return retainedPerCycle(readings, part);
}
