// What a script's global scope holds: Node 22 on the server, plain V8 on the client (fivem-runtime.md §10).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, startFixtures, tempResource } from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());

describe('server JS', () => {
  it('has Node’s globals and FiveM’s timers, but no CommonJS module scope and no window', async () => {
    sim = await startFixtures();
    expect(sim.exports.sim_core.Environment()).toEqual({
      require: 'function',
      process: 'object',
      Buffer: 'function',
      fetch: 'function',
      AbortController: 'function',
      URL: 'function',
      TextEncoder: 'function',
      structuredClone: 'function',
      queueMicrotask: 'function',
      module: 'undefined',
      dirname: 'undefined',
      window: 'undefined',
      pathJoin: 'a/b',
      timersAreFiveM: true,
      timerHandle: 'object',
    });
  });

  it('makes real HTTP requests with global fetch', async () => {
    const server = http.createServer((_req, res) => res.end('hello over loopback'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      sim = await startFixtures({ clock: 'real' });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      expect(await sim.exports.sim_core.FetchText(url)).toBe('200 hello over loopback');
    } finally {
      server.close();
    }
  });

  it('sends what server scripts fetch through the machine’s network given as `fetch`', async () => {
    const server = http.createServer((_req, res) => res.end('hello over loopback'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const seen: string[] = [];
    try {
      sim = await startFixtures({
        clock: 'real',
        fetch: (input, init) => {
          seen.push(String(input));
          return fetch(input, init);
        },
      });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/watched`;
      expect(await sim.exports.sim_core.FetchText(url)).toBe('200 hello over loopback');
      expect(seen).toEqual([url]);
    } finally {
      server.close();
    }
  });

  it('reports process.exit instead of ending the test run', async () => {
    const dir = tempResource('exiter', {
      'fxmanifest.lua': manifest("server_script 's.js'"),
      's.js': "exports('Exit', () => { try { process.exit(3); } catch (e) { return e.message; } });",
    });
    sim = await startFixtures({ resources: [dir] });
    expect(sim.exports.exiter.Exit()).toBe('Node.js exiting (exit code 3)');
    expect(sim.errors.map((e) => e.text.split('\n')[0])).toEqual([
      'SCRIPT ERROR in process.exit: Error: Node.js exiting (exit code 3)',
    ]);
  });

  it('throws when a script assigns to the `exports` proxy the way CommonJS output does', async () => {
    const dir = tempResource('cjs', {
      'fxmanifest.lua': manifest("server_script 's.js'"),
      's.js': 'exports.something = 1;',
    });
    sim = await startFixtures({ resources: [dir] });
    expect(sim.errors.map((e) => e.text.split('\n')[0])).toEqual([
      'Error loading script s.js in resource cjs: Error: cannot set values on exports',
    ]);
  });

  it('gives scripts a Date that follows the simulator’s clock', async () => {
    sim = await startFixtures();
    await sim.advance(10 * 60 * 1000);
    const [now, constructed, gameTimer] = sim.exports.sim_core.Now() as number[];
    expect(now).toBe(sim.now());
    expect(constructed).toBe(sim.now());
    expect(gameTimer).toBe(10 * 60 * 1000);
  });
});

describe('client JS', () => {
  it('has no Node and no web APIs, only CitizenFX globals, console and the timers', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    expect(p.exports.sim_core.Environment()).toEqual({
      fetch: 'undefined',
      window: 'undefined',
      process: 'undefined',
      require: 'undefined',
      Buffer: 'undefined',
      URL: 'undefined',
      TextEncoder: 'undefined',
      queueMicrotask: 'undefined',
      setTimeout: 'function',
      setTick: 'function',
      console: 'object',
      exports: 'function',
    });
  });
});
