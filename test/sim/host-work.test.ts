// The host-work meter (Sim.hostWork): the simulator's own work for a resource's server scripts (what FXServer does in
// C++, or the players' machines do) is told apart from the scripts' work, by switching sides at every boundary.
// What is checked is where the boundaries are (the switches counted), never how long anything took.
import { afterEach, expect, it } from 'vitest';
import { manifest, tempResource } from '../../bench/support/sim-fixtures.js';
import { createSim, type Sim } from '../../sim/index.js';

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function withWorker(): Promise<Sim> {
  const dir = tempResource('worker', {
    'fxmanifest.lua': manifest("server_script 's.js'"),
    's.js': [
      'exports("Sum", (n) => { let t = 0; for (let i = 0; i < n; i++) t += i; return t; });',
      'exports("Store", (n) => { for (let i = 0; i < n; i++) SetResourceKvpNoSync("k" + i, "v"); return n; });',
      'exports("Announce", () => { emitNet("worker:news", -1, "hello"); return true; });',
    ].join('\n'),
  });
  sim = await createSim({ resources: [dir], clock: 'virtual', recordEvents: false, chat: false });
  return sim;
}

function switchesOf(running: Sim, work: () => unknown): number {
  const before = running.hostWork.switches;
  work();
  return running.hostWork.switches - before;
}

it('switches nothing while it is off', async () => {
  const running = await withWorker();
  expect(switchesOf(running, () => running.exports.worker.Store(3))).toBe(0);
  expect(running.hostWork.hostUs).toBe(0);
});

it("counts the caller's side, the resource's code, and each native it calls as the host's", async () => {
  const running = await withWorker();
  const { worker } = running.exports;
  // The first call of an export looks it up through an event: done before counting.
  worker.Sum(10);
  worker.Store(0);
  worker.Announce();
  running.hostWork.start('worker');
  // The test calling the export is another resource (host), the export's code is the script's: in and back out.
  const call = switchesOf(running, () => worker.Sum(1000));
  expect(call).toBe(4);
  // Each native is a switch to the host and back.
  expect(switchesOf(running, () => worker.Store(5))).toBe(call + 5 * 2);
  // emitNet packs on the script's side, then the fan-out to clients is the host's.
  expect(switchesOf(running, () => worker.Announce())).toBe(call + 2);
  running.hostWork.stop();
  expect(switchesOf(running, () => worker.Store(5))).toBe(0);
});

it("counts a resource's client scripts as the host's: they run on the players' machines", async () => {
  const dir = tempResource('both', {
    'fxmanifest.lua': manifest("client_script 'c.js'"),
    'c.js': 'exports("Sum", (n) => { let t = 0; for (let i = 0; i < n; i++) t += i; return t; });',
  });
  sim = await createSim({ resources: [dir], clock: 'virtual', recordEvents: false, chat: false });
  const player = await sim.join();
  await sim.settle();
  player.exports.both.Sum(10);
  sim.hostWork.start('both');
  // From the test's code (the script's side by default) into the host, and back: nothing on the script's side.
  expect(switchesOf(sim, () => player.exports.both.Sum(1000))).toBe(2);
});
