// The fault tools of sim/community/ against a real redis-server: what each one does to a client, as the tests of
// issue 30 (and the chaos test) rely on it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { copyKvpFolder } from '../../sim/community/kvp-folder.js';
import { startReplica } from '../../sim/community/redis-replica.js';
import { startTcpProxy } from '../../sim/community/tcp-proxy.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function redis(): Promise<RedisServer> {
  const server = await startRedisServer();
  cleanups.push(() => server.stop());
  return server;
}

/** A client as the bridge has one: no offline queue, a short command timeout, reconnecting by itself. */
function client(port: number): Redis {
  const connection = new Redis({
    port,
    host: '127.0.0.1',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 300,
    retryStrategy: () => 50,
  });
  connection.on('error', () => {});
  cleanups.push(() => connection.disconnect());
  return connection;
}

const ready = (connection: Redis) =>
  connection.status === 'ready' ? Promise.resolve() : new Promise((resolve) => connection.once('ready', resolve));

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never: ${what}`);
}

describe.skipIf(!redisAvailable())('the community fault tools', () => {
  it('a TCP proxy forwards until cut: a reset fails the client at once, a black hole only times out and delivers once healed', async () => {
    const server = await redis();
    const proxy = await startTcpProxy(server.port);
    cleanups.push(() => proxy.close());
    const connection = client(proxy.port);
    await ready(connection);
    expect(await connection.call('SET', 'k', '1')).toBe('OK');
    expect(proxy.connections).toBe(1);
    // Redis names the client by the proxy's own end of the link.
    await connection.call('CLIENT', 'SETNAME', 'through-the-proxy');
    const listed = String(await server.command('CLIENT', 'LIST'));
    const port = Number(/addr=127\.0\.0\.1:(\d+) .*name=through-the-proxy/.exec(listed)?.[1]);
    expect([...proxy.localPorts]).toEqual([port]);

    proxy.cutLink('blackhole');
    await expect(connection.call('SET', 'k', '2')).rejects.toThrow(/timed out/);
    expect(await server.command('GET', 'k')).toBe('1');
    proxy.heal();
    // The command the client gave up on runs once the link heals.
    await eventually(async () => (await server.command('GET', 'k')) === '2', 'the held SET to land');

    proxy.cutLink('reset');
    await eventually(async () => connection.status !== 'ready', 'the client to see the reset');
    await expect(connection.call('GET', 'k')).rejects.toThrow();
    expect(proxy.connections).toBe(0);
    proxy.heal();
    await ready(connection);
    expect(await connection.call('GET', 'k')).toBe('2');
  });

  it('a retargeted proxy drops its connections and forwards the next ones to the new port', async () => {
    const [first, second] = [await redis(), await redis()];
    await second.command('SET', 'which', 'second');
    const proxy = await startTcpProxy(first.port);
    cleanups.push(() => proxy.close());
    const connection = client(proxy.port);
    await ready(connection);
    expect(await connection.call('GET', 'which')).toBeNull();
    proxy.retarget(second.port);
    await eventually(async () => (await connection.call('GET', 'which').catch(() => null)) === 'second', 'failover');
    expect(proxy.target).toBe(second.port);
  });

  it('restarts from an older snapshot: what was written after it is gone', async () => {
    const server = await redis();
    await server.command('SET', 'k', 'before');
    const older = await server.snapshot();
    await server.command('SET', 'k', 'after');
    await server.command('SET', 'new', 'x');
    await server.restartFrom(older);
    expect(await server.command('GET', 'k')).toBe('before');
    expect(await server.command('GET', 'new')).toBeNull();
    // A plain restart is still empty, the snapshot notwithstanding.
    await server.restart();
    expect(await server.command('GET', 'k')).toBeNull();
  });

  it('CLIENT PAUSE WRITE holds writes until it ends; reads go on', async () => {
    const server = await redis();
    const connection = client(server.port);
    await ready(connection);
    await server.pause(1_000, 'WRITE');
    const write = connection.call('SET', 'k', 'v').catch((error: Error) => error.message);
    expect(await write).toMatch(/timed out/);
    // Another connection reads meanwhile (one client's commands run in order: its own reads wait behind the write).
    expect(await server.command('GET', 'k')).toBeNull();
    await eventually(async () => (await server.command('GET', 'k')) === 'v', 'the paused write to run');
  });

  it('a replica made to lag, then promoted, has only what it had replicated', async () => {
    const primary = await redis();
    await primary.command('SET', 'k', 'replicated');
    const replica = await startReplica(primary);
    cleanups.push(() => replica.stop());
    expect(await replica.server.command('GET', 'k')).toBe('replicated');

    replica.lag();
    await primary.command('SET', 'k', 'lost');
    await replica.server.promote();
    expect(await replica.server.command('GET', 'k')).toBe('replicated');
    expect(await replica.server.command('SET', 'k', 'primary now')).toBe('OK');
  });

  it('copies a KVP folder as an owner copies a server', () => {
    const from = mkdtempSync(join(tmpdir(), 'kvp-'));
    writeFileSync(join(from, 'bridge.kvp.jsonl'), '{"k":"community:server","t":"s","v":"0123456789abcdef"}\n');
    const to = copyKvpFolder(from);
    cleanups.push(() => rmSync(from, { recursive: true, force: true }));
    cleanups.push(() => rmSync(to, { recursive: true, force: true }));
    expect(to).not.toBe(from);
    expect(readFileSync(join(to, 'bridge.kvp.jsonl'), 'utf8')).toContain('0123456789abcdef');
  });
});
