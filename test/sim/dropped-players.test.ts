// A simulator that runs thousands of players through (the bench's connect/drop cycles) must not keep the ones who
// left: a dropped player's client, runtimes and records are garbage once the test lets go of its SimPlayer.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import { manifest, startFixtures, tempResource } from '../../bench/support/sim-fixtures.js';
import { createSim, type Sim, type SimPlayer } from '../../sim/index.js';

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

/** A full collection; the flag is set at run time so the suite needs no `--expose-gc`. */
function fullGc(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

type Leave = (player: SimPlayer, sim: Sim) => void;

/** In a function of its own: a suspended frame that still held the last player would keep it alive. */
async function joinAndLeave(running: Sim, leave: Leave): Promise<WeakRef<SimPlayer>[]> {
  const refs: WeakRef<SimPlayer>[] = [];
  for (let i = 0; i < 5; i++) {
    const player = await running.join();
    refs.push(new WeakRef(player));
    leave(player, running);
  }
  await running.settle();
  return refs;
}

async function leftBehind(leave: Leave): Promise<number> {
  const running = await startFixtures();
  sim = running;
  const refs = await joinAndLeave(running, leave);
  // A WeakRef holds its target until the job that made it ends.
  await new Promise((resolve) => setImmediate(resolve));
  fullGc();
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

it('keeps no player who quit from their own client', async () => {
  expect(await leftBehind((player) => player.drop())).toBe(0);
});

it('keeps no player the server dropped', async () => {
  expect(await leftBehind((player, running) => running.exports.sim_core.Kick(player.id, 'bye'))).toBe(0);
});

// FXServer frees a client's state when it leaves: the callbacks it made for playerConnecting (held by no script here,
// as no resource listens) and the client's net-event limits go with it.
it('holds nothing per player once they have left, callbacks of their connection included', async () => {
  const running = await createSim({
    resources: [tempResource('idle', { 'fxmanifest.lua': manifest('') })],
    clock: 'virtual',
    recordEvents: false,
  });
  sim = running;
  const before = running.footprint();
  for (let i = 0; i < 5; i++) {
    const player = await running.join();
    // Counted by the server's net-event limits from now on.
    player.emitNet('idle:ping');
    await running.settle();
    player.drop();
  }
  await running.settle();
  expect(running.footprint()).toEqual(before);
});
