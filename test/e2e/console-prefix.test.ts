// FXServer names the resource on every line a script prints (`[script:bridge]`, the simulator's `[bridge]`), so a
// line of the bridge's own must not name it again.
import { afterEach, expect, it } from 'vitest';
import { startWorld, type World } from './support/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

it('names the bridge once on each line it prints', async () => {
  world = await startWorld({ clock: 'virtual' });
  await world.sim.join({ name: 'Alex', identifiers: ['discord:000000000000000001'] });
  const lines = world.sim.console.filter((line) => line.resource === 'bridge');
  expect(lines.some((line) => line.side === 'server' && /^INFO: the panel at/.test(line.text))).toBe(true);
  for (const line of lines) expect(line.line.split('[bridge]').length - 1, line.line).toBe(1);
});
