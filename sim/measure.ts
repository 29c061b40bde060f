// How much a simulated player costs: `node --expose-gc --import tsx sim/measure.ts [players]`.
// Loads the repository root as `bridge` (build it first), joins the players on the virtual clock, then runs a
// minute of game time and a broadcast to everyone. Prints time and memory per joined player.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSim } from './index.js';

const players = Number(process.argv[2] ?? 500);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

const sim = await createSim({ resources: [{ dir: root, name: 'bridge' }], clock: 'virtual', recordEvents: false });
await sim.join();
gc();
const before = process.memoryUsage();
let started = performance.now();
for (let i = 0; i < players; i++) {
  await sim.join({ name: `Player ${i}`, identifiers: [`chat:${100000000000000000n + BigInt(i)}`, `license:${i}`] });
}
const joinMs = performance.now() - started;
gc();
const after = process.memoryUsage();

started = performance.now();
await sim.tick();
const firstFrameMs = performance.now() - started;

started = performance.now();
await sim.advance(60_000);
const minuteMs = performance.now() - started;

started = performance.now();
sim.emitNet('bridge:sim:measure', -1, 'hello');
await sim.settle();
const broadcastMs = performance.now() - started;

console.log(`players joined:          ${players}`);
console.log(
  `join time:               ${(joinMs / players).toFixed(2)} ms per player (${(joinMs / 1000).toFixed(2)} s total)`,
);
console.log(`heap:                    ${kb((after.heapUsed - before.heapUsed) / players)} per player`);
console.log(`rss:                     ${kb((after.rss - before.rss) / players)} per player (${mb(after.rss)} total)`);
console.log(`first frame after joins: ${firstFrameMs.toFixed(0)} ms (every client's queued start events)`);
console.log(`one minute of game time: ${minuteMs.toFixed(0)} ms`);
console.log(`broadcast to everyone:   ${broadcastMs.toFixed(0)} ms`);
console.log(`script errors:           ${sim.errors.length}`);
await sim.stop();
