// The thread-hold meter of the bench (bench/support/thread-hold.ts): which stretches are a resource's tasks, what
// started each, and that stopping it leaves the simulator as it was. Counts and names only, never how long anything
// took.
import { afterEach, expect, it } from 'vitest';
import { manifest, tempResource } from '../../bench/support/sim-fixtures.js';
import { meterThreadHold } from '../../bench/support/thread-hold.js';
import { Host } from '../../sim/host/host.js';
import { createSim, type Sim } from '../../sim/index.js';
import { JsRuntime } from '../../sim/js/js-runtime.js';

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function withResources(): Promise<Sim> {
  const worker = tempResource('worker', {
    'fxmanifest.lua': manifest("server_script 's.js'"),
    's.js': [
      "on('worker:ping', () => { globalThis.pings = (globalThis.pings ?? 0) + 1; });",
      "on('worker:later', async () => { await null; globalThis.later = true; });",
    ].join('\n'),
  });
  const other = tempResource('other', {
    'fxmanifest.lua': manifest("server_script 's.js'"),
    's.js': "on('other:ping', () => { globalThis.pings = (globalThis.pings ?? 0) + 1; });",
  });
  sim = await createSim({ resources: [worker, other], clock: 'virtual', recordEvents: false, chat: false });
  return sim;
}

it("counts one task per event into the resource's server runtime, names it, and not another resource's", async () => {
  const running = await withResources();
  const meter = meterThreadHold(running, 'pings', 'worker');
  for (let ping = 0; ping < 3; ping++) running.emit('worker:ping');
  running.emit('other:ping');
  const hold = await meter.stop();
  expect(hold.tasks).toBe(3);
  expect(hold.topTasks.map((task) => task.what)).toEqual(Array(3).fill('event worker:ping'));
  expect(hold.scriptStarts).toBe(0);
});

it("counts a continuation of the resource's code as a task of its own", async () => {
  const running = await withResources();
  const meter = meterThreadHold(running, 'later', 'worker');
  running.emit('worker:later');
  // The continuation runs once the promise jobs do; no frame runs meanwhile (each would enter the runtime's tick).
  await new Promise((resolve) => setImmediate(resolve));
  const hold = await meter.stop();
  const started = hold.topTasks.map((task) => task.what);
  expect(started).toContain('event worker:later');
  expect(started).toContain('a continuation of its code (a promise)');
});

it("sets the first run of the resource's script apart, and counts every server frame of the run", async () => {
  const running = await withResources();
  const meter = meterThreadHold(running, 'restart', 'worker');
  await running.restartResource('worker');
  await running.advance(1000);
  const hold = await meter.stop();
  expect(hold.scriptStarts).toBe(1);
  expect(hold.frames).toBe(Math.ceil((hold.gameS * 1000) / 50));
});

it('leaves the simulator as it found it when stopped', async () => {
  const running = await withResources();
  const enter = Host.prototype.enter;
  const entries = ['loadScript', 'dispatchEvent', 'tick', 'callRef'].map((name) =>
    Object.getOwnPropertyDescriptor(JsRuntime.prototype, name),
  );
  const run = running.hostWork.run;
  await meterThreadHold(running, 'nothing', 'worker').stop();
  expect(Host.prototype.enter).toBe(enter);
  expect(
    ['loadScript', 'dispatchEvent', 'tick', 'callRef'].map((name) =>
      Object.getOwnPropertyDescriptor(JsRuntime.prototype, name),
    ),
  ).toEqual(entries);
  expect(running.hostWork.run).toBe(run);
  expect(running.hostWork.enabled).toBe(false);
});
