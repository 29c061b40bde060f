// Manifests, load order, start/stop events, resource state and files (fivem-runtime.md §3).
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

/** A resource whose every script reports `name` through a local event, to see the load order. */
function orderProbe(): string {
  const js = (name: string) => `emit('order:step', '${name}', GetResourceState(GetCurrentResourceName()));`;
  const lua = (name: string) => `TriggerEvent('order:step', '${name}', GetResourceState(GetCurrentResourceName()))`;
  return tempResource('order_probe', {
    'fxmanifest.lua': manifest(`
      server_script 'late.lua'
      shared_scripts { 'shared/a.js', 'shared/b.lua' }
      server_scripts { 'server/*.js' }
      client_script 'client.lua'
      shared_script 'shared/c.lua'
    `),
    'shared/a.js': js('shared/a.js'),
    'shared/b.lua': lua('shared/b.lua'),
    'shared/c.lua': lua('shared/c.lua'),
    'server/2.js': js('server/2.js'),
    'server/1.js': js('server/1.js'),
    'late.lua': lua('late.lua'),
    'client.lua': lua('client.lua'),
  });
}

describe('loading', () => {
  it('loads every shared script, then the side’s scripts, in manifest order with globs expanded, while "starting"', async () => {
    const dir = orderProbe();
    sim = await startFixtures({ resources: [{ dir, start: false }] });
    const steps: unknown[] = [];
    sim.on('order:step', (args) => steps.push(args));
    expect(await sim.startResource('order_probe')).toBe(true);
    expect(steps).toEqual([
      ['shared/a.js', 'starting'],
      ['shared/b.lua', 'starting'],
      ['shared/c.lua', 'starting'],
      ['late.lua', 'starting'],
      ['server/1.js', 'starting'],
      ['server/2.js', 'starting'],
    ]);
  });

  it('lets JS read the Lua config at its top level, on the server and on the client', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    expect(logOf(sim, 'sim_core')[0]).toMatchObject({
      kind: 'config',
      describe: 'described x',
      config: { Name: 'sim_core' },
    });
    expect((p.exports.sim_core.GetLog() as Record<string, unknown>[])[0]).toMatchObject({ name: 'sim_core' });
  });

  it('loads another resource’s file through `@resource/path`', async () => {
    const dir = tempResource('borrower', {
      'fxmanifest.lua': manifest("shared_script '@sim_core/config.lua'\nserver_script 'server.lua'"),
      'server.lua': "exports('BorrowedName', function() return Config.Name end)",
    });
    sim = await startFixtures({ resources: [coreDir, dir] });
    expect(sim.exports.borrower.BorrowedName()).toBe('sim_core');
  });

  it('prints script errors the FXServer way and keeps loading the rest', async () => {
    const dir = tempResource('broken', {
      'fxmanifest.lua': manifest("server_scripts { 'a.js', 'b.lua', 'c.lua', 'missing.lua', 'd.js' }"),
      'a.js': 'this is not javascript',
      'b.lua': 'this is not lua',
      'c.lua': "error('thrown at load')",
      'd.js': "exports('Alive', () => 'still loaded');",
    });
    sim = await startFixtures({ resources: [dir] });
    expect(sim.resourceState('broken')).toBe('started');
    expect(sim.exports.broken.Alive()).toBe('still loaded');
    expect(sim.errors.map((e) => `${e.kind}: ${e.text.split('\n')[0]}`)).toEqual([
      "parse: Error parsing script a.js in resource broken: SyntaxError: Unexpected identifier 'is' (@broken/a.js:1)",
      expect.stringMatching(/^parse: Error parsing script b\.lua in resource broken: @broken\/b\.lua:1:/),
      expect.stringMatching(/^load: Error loading script c\.lua in resource broken: @broken\/c\.lua:1: thrown at load/),
      'load: Error loading script missing.lua in resource broken: could not open file',
    ]);
  });

  it('starts dependencies first and refuses a resource whose dependency is missing', async () => {
    const orphan = tempResource('orphan', {
      'fxmanifest.lua': manifest("dependency 'nowhere'\nserver_script 's.lua'"),
      's.lua': '',
    });
    sim = await startFixtures({ resources: [consumerDir, coreDir, orphan] });
    expect(sim.resourceState('sim_core')).toBe('started');
    expect(sim.resourceState('sim_consumer')).toBe('started');
    expect(sim.resourceState('orphan')).toBe('stopped');
    expect(sim.console.map((l) => l.text)).toContain(
      "Couldn't start resource orphan: dependency nowhere could not be started.",
    );
  });
});

describe('lifecycle events', () => {
  it('fires onResourceStart at once (the resource’s own listeners too) and onServerResourceStart next frame', async () => {
    sim = await startFixtures();
    const log = () => logOf(sim, 'sim_core');
    expect(entries(log(), 'onResourceStart')).toEqual([
      { kind: 'onResourceStart', res: 'sim_core', state: 'started' },
      { kind: 'onResourceStart', res: 'sim_consumer', state: 'started' },
    ]);
    expect(entries(log(), 'onServerResourceStart')).toEqual([]);
    await sim.tick();
    expect(entries(log(), 'onServerResourceStart').map((e) => e.res)).toEqual(['sim_core', 'sim_consumer']);
  });

  it('runs onResourceStop inside the stopping resource, then queues onServerResourceStop for the others', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    await sim.stopResource('sim_core');
    expect(sim.resourceState('sim_core')).toBe('stopped');
    expect(sim.stateBag('global').coreStoppedCleanly).toBe(true);
    expect(entries(logOf(sim, 'sim_consumer'), 'onServerResourceStop')).toEqual([]);
    expect(p.resourceState('sim_core')).toBe('started');
    await sim.tick();
    expect(entries(logOf(sim, 'sim_consumer'), 'onServerResourceStop')).toEqual([
      { kind: 'onServerResourceStop', res: 'sim_core' },
    ]);
    expect(p.resourceState('sim_core')).toBe('stopped');
    expect(sim.resourceState('nope')).toBe('missing');
  });

  it('cancels a start from onResourceStarting', async () => {
    const guard = tempResource('guard', {
      'fxmanifest.lua': manifest("server_script 'guard.lua'"),
      'guard.lua':
        "AddEventHandler('onResourceStarting', function(res) if res == 'sim_consumer' then CancelEvent() end end)",
    });
    sim = await startFixtures({ resources: [guard, coreDir, consumerDir] });
    expect(sim.resourceState('sim_core')).toBe('started');
    expect(sim.resourceState('sim_consumer')).toBe('stopped');
  });

  it('restarts a resource: fresh runtimes, the same exports', async () => {
    sim = await startFixtures();
    sim.exports.sim_core.ClearLog();
    await sim.restartResource('sim_core');
    await sim.tick();
    expect(entries(logOf(sim, 'sim_core'), 'config')).toHaveLength(1);
    expect(sim.exports.sim_core.Add(1, 1)).toBe(2);
  });
});

describe('resource natives', () => {
  it('reads files, metadata and paths; writes only into the calling resource', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    expect(sim.exports.sim_core.Files()).toEqual({
      info: '{ "motd": "hello from data/info.json" }\n',
      secret: 'server-only file\n',
      missing: null,
      escape: null,
      flavour: 'vanilla',
      serverScripts: 1,
      saved: true,
      savedOther: false,
      readBack: 'written',
      path: coreDir,
    });
    expect(sim.savedFile('sim_core', 'out.txt')).toBe('written');
    // A client only has its scripts and `files {}` entries.
    expect(p.exports.sim_core.Files()).toEqual({ info: '{ "motd": "hello from data/info.json" }\n', secret: null });
  });

  it('answers the resource natives from Lua', async () => {
    sim = await startFixtures();
    expect(sim.exports.sim_consumer.Resources()).toEqual({
      current: 'sim_consumer',
      core: 'started',
      missing: 'missing',
      info: '{ "motd": "hello from data/info.json" }\n',
      escape: 'nil',
    });
  });

  it('tells who invoked an export (GetInvokingResource)', async () => {
    sim = await startFixtures();
    expect(sim.exports.sim_consumer.WhoCallsCore()).toBe('sim_consumer');
    expect(sim.exports.sim_core.Invoker()).toBe('sim');
  });
});
