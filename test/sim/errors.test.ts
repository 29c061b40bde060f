// Script errors are caught and printed as FXServer prints them, never thrown into the test (fivem-runtime.md §9).
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
const firstLines = (s: Sim) => s.errors.map((e) => e.text.split('\n')[0]);

describe('JS', () => {
  it('prints a throwing listener and runs the next one', async () => {
    sim = await startFixtures();
    sim.emit('core:throws');
    expect(firstLines(sim)).toEqual(["SCRIPT ERROR in event 'core:throws': Error: handler blew up"]);
    expect(entries(logOf(sim, 'sim_core'), 'afterThrow')).toHaveLength(1);
    expect(sim.errors[0]).toMatchObject({ side: 'server', resource: 'sim_core', kind: 'event' });
    // The stack keeps only script frames, as FXServer's prepareStackTrace does.
    expect(sim.console.at(-1)?.line).toMatch(
      /^\[server\] \[sim_core\] SCRIPT ERROR in event 'core:throws': Error: handler blew up\n {4}at @sim_core\/server\.js:\d+:\d+$/,
    );
  });

  it('prints an async listener’s rejection as "Unhandled promise failure"', async () => {
    sim = await startFixtures();
    sim.emit('core:rejects');
    await sim.tick();
    expect(firstLines(sim)).toEqual(['Unhandled promise failure: Error: async handler blew up']);
  });

  it('prints any other unhandled rejection of a script, and the test runner never sees it', async () => {
    sim = await startFixtures();
    sim.exports.sim_core.UnhandledRejection();
    await sim.tick();
    expect(firstLines(sim)).toEqual(['SCRIPT ERROR in promise (unhandled rejection): Error: nobody caught me']);
  });

  it('prints throws in timers and ticks and keeps ticking', async () => {
    const dir = tempResource('flaky_timers', {
      'fxmanifest.lua': manifest("server_script 's.js'"),
      's.js': `
        let ticks = 0;
        exports('Ticks', () => ticks);
        setTimeout(() => { throw new Error('timer blew up'); }, 0);
        setTick(() => { ticks++; if (ticks === 1) throw new Error('tick blew up'); });
      `,
    });
    sim = await startFixtures({ resources: [dir] });
    await sim.tick(3);
    expect(firstLines(sim)).toEqual([
      'SCRIPT ERROR in timer: Error: timer blew up',
      'SCRIPT ERROR in ticker: Error: tick blew up',
    ]);
    expect(sim.exports.flaky_timers.Ticks()).toBe(3);
  });
});

describe('Lua', () => {
  it('prints an erroring handler and an erroring thread with a traceback', async () => {
    const dir = tempResource('lua_errors', {
      'fxmanifest.lua': manifest("server_script 's.lua'"),
      's.lua': 'CreateThread(function()\n  Wait(0)\n  local x = nil\n  return x.field\nend)',
    });
    sim = await startFixtures({ resources: [coreDir, consumerDir, dir] });
    sim.emit('consumer:throws');
    await sim.tick(3);
    expect(firstLines(sim)).toEqual([
      expect.stringMatching(/^SCRIPT ERROR: @sim_consumer\/server\.lua:\d+: lua handler blew up$/),
      expect.stringMatching(/^SCRIPT ERROR: @lua_errors\/s\.lua:4: attempt to index a nil value \(local 'x'\)$/),
    ]);
    expect(sim.errors.every((e) => e.text.includes('stack traceback'))).toBe(true);
  });
});

describe('natives', () => {
  it('throws an error naming a FiveM native the simulator does not emulate (JS and Lua)', async () => {
    sim = await startFixtures();
    expect(sim.exports.sim_core.Unemulated()).toBe('native GetEntityCoords is not emulated by the simulator (server)');
    expect(sim.exports.sim_consumer.Unemulated()).toEqual([
      false,
      'native GetEntityCoords is not emulated by the simulator (server)',
      'nil',
    ]);
  });
});

describe('assertNoErrors', () => {
  it('passes on a clean run and lists every error otherwise', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.emitNet('core:ping', 1);
    await sim.settle();
    expect(() => sim.assertNoErrors()).not.toThrow();
    sim.emit('core:throws');
    expect(() => sim.assertNoErrors()).toThrow(/1 script error\(s\):\nSCRIPT ERROR in event 'core:throws'/);
  });
});
