// Exports as local __cfx_export_<resource>_<name> events with a set-callback (fivem-runtime.md §2).
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, startFixtures, tempResource } from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());
const on = (s: Sim, resource: string) => s.exports[resource];

describe('from JS', () => {
  it('registers with exports(name, fn) and calls with exports.res.name(...)', async () => {
    sim = await startFixtures();
    expect(on(sim, 'sim_core').Add(2, 3)).toBe(5);
    expect(on(sim, 'sim_core').JsEcho('a', 'b')).toEqual(['a', 'b']);
  });

  it('throws the FXServer errors for misuse, a missing export and probing the proxy', async () => {
    sim = await startFixtures();
    expect(on(sim, 'sim_core').ExportsProbe()).toEqual({
      missing: 'Error: No such export NoSuchThing in resource sim_consumer',
      awaitProxy: 'Error: No such export then in resource sim_consumer',
      assignRoot: 'Error: cannot set values on exports',
      assignResource: 'Error: cannot set values on an export resource',
      badArity: 'Error: this needs 2 arguments',
    });
    expect(() => on(sim, 'sim_core').NotThere).toThrow('No such export NotThere in resource sim_core');
  });

  it('wraps a throwing export into a generic error; the exporter prints the real one', async () => {
    sim = await startFixtures();
    expect(() => on(sim, 'sim_core').Thrower()).toThrow(
      'An error occurred while calling export Thrower of resource sim_core - see above for details',
    );
    expect(sim.errors.map((e) => e.text)).toEqual([
      expect.stringContaining('SCRIPT ERROR in call ref: Error: js export failed'),
    ]);
  });

  it('returns a promise from an async export; a rejection arrives as the message string', async () => {
    sim = await startFixtures();
    expect(await sim.resolve(on(sim, 'sim_core').AsyncDouble(21))).toBe(42);
    const rejected = (on(sim, 'sim_core').AsyncReject() as Promise<never>).catch((e: unknown) => e);
    expect(await sim.resolve(rejected)).toBe('async nope');
  });

  it('gets a promise when a Lua export waits before returning', async () => {
    sim = await startFixtures();
    const slow = on(sim, 'sim_core').Slow(4) as Promise<number>;
    expect(slow).toBeInstanceOf(Promise);
    const started = sim.now();
    expect(await sim.resolve(slow)).toBe(8);
    expect(sim.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('caches a looked-up export: one lookup event for many calls', async () => {
    sim = await startFixtures();
    const before = sim.eventsNamed('__cfx_export_sim_core_Add').length;
    for (let i = 0; i < 5; i++) on(sim, 'sim_core').Add(i, i);
    expect(sim.eventsNamed('__cfx_export_sim_core_Add').length - before).toBe(1);
  });

  it('answers a manifest server_export from a JS global only after onServerResourceStart (next frame)', async () => {
    const dir = tempResource('late_export', {
      'fxmanifest.lua': manifest("server_script 'server.js'\nserver_export 'Hello'"),
      'server.js': 'globalThis.Hello = () => "hello from a global";',
    });
    sim = await startFixtures({ resources: [dir] });
    expect(() => on(sim, 'late_export').Hello).toThrow('No such export Hello in resource late_export');
    await sim.tick();
    expect(on(sim, 'late_export').Hello()).toBe('hello from a global');
  });
});

describe('from Lua', () => {
  it('registers with exports(name, fn) and calls with exports.res:name(...)', async () => {
    sim = await startFixtures();
    const out = on(sim, 'sim_consumer').CallJs() as Record<string, unknown>;
    expect(out.add).toBe(42);
    expect(out.colon).toEqual(['a', 'b']);
    expect(out.array).toEqual([1, 2]);
    expect(out.nothing).toBeUndefined();
    expect(on(sim, 'sim_consumer').LuaAdd(2, 3)).toBe(5);
  });

  it('loses the first argument with a dot instead of a colon', async () => {
    sim = await startFixtures();
    expect((on(sim, 'sim_consumer').CallJs() as Record<string, unknown>).dot).toEqual(['kept']);
  });

  it('raises the FXServer errors for a missing and a failing export', async () => {
    sim = await startFixtures();
    const out = on(sim, 'sim_consumer').CallJs() as Record<string, unknown>;
    expect(out.missingOk).toBe(false);
    expect(out.missingError).toMatch(/sim_consumer\/server\.lua:\d+: No such export NoSuchExport in resource sim_core/);
    expect(out.throwerOk).toBe(false);
    expect(out.throwerError).toContain('An error occurred while calling export `Thrower` in resource `sim_core`');
    expect(() => on(sim, 'sim_core').Fails()).toThrow(
      'An error occurred while calling export Fails of resource sim_core',
    );
    expect(
      sim.errors.some(
        (e) => e.text.includes('SCRIPT ERROR: @sim_core/config.lua') && e.text.includes('lua export failed'),
      ),
    ).toBe(true);
  });

  it('answers a manifest server_export from a Lua global at once', async () => {
    sim = await startFixtures();
    expect((on(sim, 'sim_consumer').CallJs() as Record<string, unknown>).legacy).toBe('legacy server export');
    expect(on(sim, 'sim_core').LegacyFromJs()).toBe('legacy server export');
  });

  it('blocks on an async export (JS, or Lua that waits) inside a thread, and gets the raw handle outside one', async () => {
    sim = await startFixtures();
    const [doubled, ok, err] = (await sim.resolve(on(sim, 'sim_consumer').AwaitJs(5))) as unknown[];
    expect(doubled).toBe(10);
    expect(ok).toBe(false);
    expect(err).toContain('async nope');
    const atLoad = (on(sim, 'sim_consumer').GetLog() as Record<string, unknown>[]).find(
      (e) => e.kind === 'asyncOutsideThread',
    );
    expect(atLoad).toEqual({ kind: 'asyncOutsideThread', type: 'table', handle: true });
  });
});

describe('caching and restarts', () => {
  it('resets the caches on the queued stop event; until then the cached reference is dead', async () => {
    sim = await startFixtures();
    expect(on(sim, 'sim_consumer').CallJs()).toBeTruthy();
    await sim.restartResource('sim_core');
    // The old reference is cached in sim_consumer until onServerResourceStop arrives next frame.
    expect(() => on(sim, 'sim_consumer').CallJs()).toThrow(/An error occurred while calling export CallJs/);
    expect(sim.errors.some((e) => e.text.includes("wasn't valid (did sim_core restart recently?)"))).toBe(true);
    await sim.tick();
    expect((on(sim, 'sim_consumer').CallJs() as Record<string, unknown>).add).toBe(42);
  });
});

describe('client side', () => {
  it('exports work client to client, from JS (the test) and from Lua', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'Client' });
    const client = p.exports.sim_core;
    expect(client.ServerId()).toBe(p.id);
    expect((client.GetConfig() as Record<string, unknown>).Name).toBe('sim_core');
    expect(p.exports.sim_consumer.CoreConfigName()).toBe('sim_core');
    expect(p.exports.sim_consumer.CoreServerId()).toBe(p.id);
    expect(client.LegacyClientExport()).toBe('legacy client export');
    // Exports are side-local: a server-only export does not exist on the client.
    expect(() => client.Add).toThrow('No such export Add in resource sim_core');
  });
});
