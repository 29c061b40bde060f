// Events, `source`, net-safety and delivery (fivem-runtime.md §1.1–§1.4, §1.6).
import { afterEach, describe, expect, it } from 'vitest';
import { entries, logOf, manifest, startFixtures, tempResource } from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());

describe('source in JS handlers', () => {
  it('is the player id in a net handler, "" for a local event, and 65535 on the client', async () => {
    sim = await startFixtures();
    const p = await sim.join({ name: 'Pinger' });
    p.emitNet('core:ping', 1);
    sim.emit('core:local', 7);
    await sim.settle();
    const log = logOf(sim, 'sim_core');
    expect(entries(log, 'ping')).toEqual([{ kind: 'ping', src: p.id, x: 1 }]);
    expect(entries(log, 'local')).toEqual([{ kind: 'local', source: '', x: 7 }]);
    const clientLog = p.exports.sim_core.GetLog() as Record<string, unknown>[];
    expect(entries(clientLog, 'pong')).toEqual([{ kind: 'pong', x: 2, source: 65535 }]);
  });

  it('is null after an await, after a nested emit, and in a timer started by the handler', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.emitNet('core:sourceProbe');
    sim.emit('core:afterDispatch');
    await sim.settle();
    await sim.tick(2);
    const log = logOf(sim, 'sim_core');
    expect(entries(log, 'sourceProbe')).toEqual([
      { kind: 'sourceProbe', before: p.id, afterNested: null, afterAwait: null },
    ]);
    expect(entries(log, 'afterDispatch')).toEqual([{ kind: 'afterDispatch', source: null }]);
  });
});

describe('source in Lua handlers', () => {
  it('is the player id in a net handler, "" for a local event, restored after a nested TriggerEvent', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.emitNet('consumer:ping', 1);
    p.emitNet('consumer:sourceProbe');
    sim.emit('consumer:local', 9);
    await sim.settle();
    await sim.tick(2);
    const log = logOf(sim, 'sim_consumer');
    expect(entries(log, 'ping')).toEqual([{ kind: 'ping', src: p.id, x: 1 }]);
    expect(entries(log, 'local')).toContainEqual({ kind: 'local', src: '', x: 9 });
    expect(entries(log, 'sourceProbe')).toEqual([
      { kind: 'sourceProbe', before: p.id, afterNested: p.id, afterWait: 'nil' },
    ]);
    const clientLog = p.exports.sim_consumer.GetLog() as Record<string, unknown>[];
    expect(entries(clientLog, 'pong')).toEqual([{ kind: 'pong', x: 2, src: 65535 }]);
  });
});

describe('net-safety', () => {
  it('drops a net event that has only local handlers, with FXServer’s message (JS and Lua)', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.emitNet('core:local', 1);
    p.emitNet('consumer:unsafe');
    await sim.settle();
    expect(entries(logOf(sim, 'sim_core'), 'local')).toEqual([]);
    expect(entries(logOf(sim, 'sim_consumer'), 'unsafe ran')).toEqual([]);
    const lines = sim.console.map((l) => l.text);
    expect(lines).toContain('Event core:local was not safe for net');
    expect(lines).toContain('event consumer:unsafe was not safe for net');
  });

  it('needs RegisterNetEvent or onNet in JS; RegisterNetEvent alone does not subscribe', async () => {
    const dir = tempResource('netsafe', {
      'fxmanifest.lua': manifest("server_script 'server.js'"),
      'server.js': `
        const seen = [];
        exports('Seen', () => seen);
        RegisterNetEvent('netsafe:a');
        on('netsafe:a', () => seen.push('a'));
        RegisterNetEvent('netsafe:orphan');
        const handler = () => seen.push('removed');
        onNet('netsafe:b', handler);
        removeEventListener('netsafe:b', handler);
      `,
    });
    sim = await startFixtures({ resources: [dir] });
    const p = await sim.join();
    p.emitNet('netsafe:a');
    p.emitNet('netsafe:b');
    p.emitNet('netsafe:orphan');
    await sim.settle();
    expect(sim.exports.netsafe.Seen()).toEqual(['a']);
    expect(sim.eventsNamed('netsafe:orphan')).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('delivers client → server events on the next server frame, in order per player', async () => {
    sim = await startFixtures();
    const [a, b] = [await sim.join({ name: 'A' }), await sim.join({ name: 'B' })];
    for (let n = 1; n <= 10; n++) {
      a.emitNet('core:sequence', n);
      b.emitNet('core:sequence', n);
    }
    expect(entries(logOf(sim, 'sim_core'), 'sequence')).toEqual([]);
    await sim.tick();
    const seq = entries(logOf(sim, 'sim_core'), 'sequence');
    expect(seq.filter((e) => e.src === a.id).map((e) => e.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(seq.filter((e) => e.src === b.id).map((e) => e.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('broadcasts with target -1 from JS and Lua, and reaches only the target otherwise', async () => {
    sim = await startFixtures();
    const [a, b] = [await sim.join({ name: 'A' }), await sim.join({ name: 'B' })];
    a.emitNet('core:broadcast', 'to everyone');
    await sim.settle();
    expect(a.notifications).toEqual([{ kind: 'feed', text: 'to everyone' }]);
    expect(b.notifications).toEqual([{ kind: 'feed', text: 'to everyone' }]);
    sim.exports.sim_consumer.EmitToAll('lua to all');
    sim.emitNet('core:notify', b.id, 'only b');
    await sim.settle();
    expect(a.received('consumer:pong').map((e) => e.args)).toEqual([['lua to all']]);
    expect(b.received('consumer:pong').map((e) => e.args)).toEqual([['lua to all']]);
    expect(a.notifications.map((n) => n.text)).toEqual(['to everyone']);
    expect(b.notifications.map((n) => n.text)).toEqual(['to everyone', 'only b']);
  });

  it('records what a client draws: feed notifications from JS and from Lua', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    sim.emitNet('core:notify', p.id, 'from js');
    sim.emitNet('consumer:notify', p.id, 'from lua');
    await sim.settle();
    expect(p.notifications).toEqual([
      { kind: 'feed', text: 'from js' },
      { kind: 'feed', text: 'from lua' },
    ]);
  });

  it('refuses target 0 or undefined (_ts makes them null) and silently drops unknown players', async () => {
    sim = await startFixtures();
    await sim.join();
    expect(sim.exports.sim_core.EmitNetProbe()).toEqual({
      zero: 'Argument at index 1 was null.',
      undef: 'Argument at index 1 was null.',
      unknown: 'sent',
    });
    await sim.settle();
    expect(sim.events.filter((e) => e.name === 'core:pong' && e.side === 'client')).toEqual([]);
  });
});

describe('handlers', () => {
  it('runs JS listeners in order without awaiting async ones', async () => {
    sim = await startFixtures();
    sim.emit('core:order', 1);
    await sim.tick();
    expect(entries(logOf(sim, 'sim_core'), 'order').map((e) => e.step)).toEqual([
      'first start 1',
      'second 1',
      'first end 1',
    ]);
  });

  it('runs each Lua handler in its own thread, so a later one runs while an earlier one waits', async () => {
    sim = await startFixtures();
    sim.emit('consumer:order', 1);
    expect(entries(logOf(sim, 'sim_consumer'), 'order').map((e) => e.step)).toEqual(['first start 1', 'second 1']);
    await sim.tick(2);
    expect(entries(logOf(sim, 'sim_consumer'), 'order').map((e) => e.step)).toEqual([
      'first start 1',
      'second 1',
      'first end 1',
    ]);
  });

  it('removes a Lua handler by its handle', async () => {
    sim = await startFixtures();
    sim.emit('consumer:removable');
    sim.exports.sim_consumer.RemoveHandler();
    sim.emit('consumer:removable');
    expect(entries(logOf(sim, 'sim_consumer'), 'removable ran')).toHaveLength(1);
  });

  it('cancels: CancelEvent marks the event, WasEventCanceled reads the last local event (JS and Lua)', async () => {
    sim = await startFixtures();
    expect(sim.exports.sim_core.CancelProbe()).toEqual([true, false]);
    expect(sim.exports.sim_consumer.CancelProbe()).toBe(true);
  });

  it('records every event with side, source, sender, target and payload', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.emitNet('core:ping', 5);
    await sim.settle();
    const toServer = sim.events.find((e) => e.name === 'core:ping');
    expect(toServer).toMatchObject({ side: 'server', kind: 'net', source: `net:${p.id}`, sender: 'sim', args: [5] });
    const toClient = sim.events.find((e) => e.name === 'core:pong' && e.side === 'client');
    expect(toClient).toMatchObject({
      player: p.id,
      kind: 'net',
      source: 'net:65535',
      sender: 'sim_core',
      target: p.id,
      args: [6],
    });
  });
});
