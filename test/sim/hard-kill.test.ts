// sim.kill(): the server process dies with no stop events (fivem-runtime.md §3, §8, §9), and restart() starts a
// new one on the same KVP.
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, tempDir, tempResource } from '../../bench/support/sim-fixtures.js';
import { createSim, type Sim } from '../../sim/index.js';

// Every write goes through the natives; the resource counts seconds in a synced int and marks its own stop.
const diary = () =>
  tempResource('diary', {
    'fxmanifest.lua': manifest(`server_script 'server.js'\nclient_script 'client.js'`),
    'server.js': `
      let seconds = GetResourceKvpInt('seconds');
      setInterval(() => SetResourceKvpInt('seconds', ++seconds), 1000);
      on('onResourceStop', (name) => {
        if (name === GetCurrentResourceName()) SetResourceKvp('stopped', 'orderly');
      });
      on('playerDropped', () => SetResourceKvp('dropped', String(source)));
      exports('Write', (key, value, sync) => (sync ? SetResourceKvp(key, value) : SetResourceKvpNoSync(key, value)));
      exports('Flush', () => FlushResourceKvp());
      exports('Read', (key) => GetResourceKvpString(key));
      exports('Seconds', () => GetResourceKvpInt('seconds'));
    `,
    'client.js': `setInterval(() => emitNet('diary:beat'), 500);`,
  });

let sim: Sim | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

const start = async (kvpDir?: string) => {
  sim = await createSim({ resources: [diary()], clock: 'virtual', ...(kvpDir ? { kvpDir } : {}) });
  return sim;
};
const diaryOf = (s: Sim) =>
  s.exports.diary as {
    Write(key: string, value: string, sync: boolean): void;
    Flush(): void;
    Read(key: string): string | null;
    Seconds(): number;
  };

describe('sim.kill()', () => {
  it('fires no playerDropped, no onResourceStop, no on<Side>ResourceStop; timers and clients just vanish', async () => {
    const s = await start(tempDir('sim-kill-'));
    const player = await s.join({ name: 'Officer' });
    await s.advance(3_500);
    const beats = s.eventsNamed('diary:beat').length;
    expect(beats).toBeGreaterThan(0);
    const recorded = s.events.length;

    await s.kill();
    await s.advance(10_000);

    expect(s.events.length).toBe(recorded);
    expect(player.connected).toBe(false);
    expect(s.players).toEqual([]);
    expect(s.resourceState('diary')).toBe('stopped');
    for (const name of ['playerDropped', 'onResourceStop', 'onServerResourceStop', 'onClientResourceStop']) {
      expect(s.eventsNamed(name)).toEqual([]);
    }
    s.assertNoErrors();
  });

  it.each([
    ['on a KVP directory', true],
    ['in memory', false],
  ])('keeps synced KVP writes and loses the NoSync ones since the last sync (%s)', async (_where, onDisk) => {
    const s = await start(onDisk ? tempDir('sim-kill-') : undefined);
    await s.advance(3_500);
    const diary = diaryOf(s);
    diary.Write('synced', 'kept', true);
    diary.Write('unsynced-then-synced', 'kept', false);
    diary.Write('sync-after', 'kept', true);
    diary.Write('flushed', 'kept', false);
    diary.Flush();
    diary.Write('unsynced', 'lost', false);
    expect(diary.Read('unsynced')).toBe('lost');

    await s.kill();
    await s.advance(10_000);
    await s.restart();

    const after = diaryOf(s);
    // Read before the new server's first interval: the count the killed one left, not one that ran on after it.
    expect(after.Seconds()).toBe(3);
    expect(after.Read('synced')).toBe('kept');
    expect(after.Read('unsynced-then-synced')).toBe('kept');
    expect(after.Read('sync-after')).toBe('kept');
    expect(after.Read('flushed')).toBe('kept');
    expect(after.Read('unsynced')).toBeNull();
    expect(after.Read('stopped')).toBeNull();
    s.assertNoErrors();
  });

  it('is unlike restart(), which drops players, stops resources and keeps NoSync writes', async () => {
    const s = await start(tempDir('sim-kill-'));
    await s.join({ name: 'Officer' });
    diaryOf(s).Write('unsynced', 'kept', false);

    await s.restart();

    expect(s.eventsNamed('playerDropped')).toHaveLength(1);
    expect(diaryOf(s).Read('stopped')).toBe('orderly');
    expect(diaryOf(s).Read('dropped')).toBe('1');
    expect(diaryOf(s).Read('unsynced')).toBe('kept');
  });

  it('lets a new server start and players join again after the kill', async () => {
    const s = await start(tempDir('sim-kill-'));
    await s.join({ name: 'Before' });
    await s.kill();
    await s.restart();
    const again = await s.join({ name: 'After' });
    await s.advance(1_500);
    expect(again.id).toBe(1);
    expect(s.eventsNamed('diary:beat').filter((e) => e.player === null && e.source === 'net:1').length).toBeGreaterThan(
      0,
    );
    expect(diaryOf(s).Seconds()).toBe(1);
    s.assertNoErrors();
  });

  it('takes the sockets its Node code opened with it, and a reconnection it had pending opens none', async () => {
    // A socket server in the test's process stands for Redis: it counts who is connected.
    const connected = new Set<Socket>();
    let accepted = 0;
    const listener = createServer((socket) => {
      accepted += 1;
      connected.add(socket);
      socket.on('close', () => connected.delete(socket));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
    const { port } = listener.address() as { port: number };
    // A module the server script requires opens the socket, as dist/redis.cjs's ioredis does, and asks again later.
    const resource = tempResource('dialer', {
      'fxmanifest.lua': manifest(`server_script 'server.js'`),
      'dialer.js': `const net = require('net');
        exports.dial = (port) => net.createConnection(port, '127.0.0.1').on('error', () => {});`,
      'server.js': `const { dial } = require('./dialer.js');
        dial(${port});
        exports('DialLater', (ms) => { require('timers').setTimeout(() => dial(${port}), ms); });`,
    });
    sim = await createSim({ resources: [resource], clock: 'virtual' });
    const until = async (check: () => boolean) => {
      for (let tries = 0; tries < 200 && !check(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await until(() => connected.size === 1);
    expect(connected.size).toBe(1);
    (sim.exports.dialer as { DialLater(ms: number): void }).DialLater(50);

    await sim.kill();
    await until(() => connected.size === 0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(connected.size).toBe(0);
    expect(accepted).toBe(1);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
});
