// The chaos test's record of Redis, against a real redis-server: every write of an owner record, a script's included,
// with Redis's time, the server whose proxy sent it, and what the record held before.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../../sim/community/tcp-proxy.js';
import { redisAvailable, startRedisServer } from '../support/redis-server.js';
import { startRedisHistory } from './redis-history.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEY = 'bridge:abc:duty-owner:284619375016482817';

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 300 && !check(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`never: ${what}`);
}

describe.skipIf(!redisAvailable())('the record of Redis', () => {
  it('sees each write of an owner record, in a script or not, with the server whose proxy sent it', async () => {
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const proxy = await startTcpProxy(redis.port);
    cleanups.push(() => proxy.close());
    const history = await startRedisHistory(redis.port, (port) => (proxy.localPorts.has(port) ? 7 : undefined));
    cleanups.push(() => history.close());
    const server = new Redis({ port: proxy.port, host: '127.0.0.1' });
    cleanups.push(() => server.disconnect());

    const started = Date.now() * 1000;
    await server.eval("redis.call('SET', KEYS[1], ARGV[1]); redis.call('SET', 'other', 'x')", 1, KEY, 'first');
    await redis.command('SET', KEY, 'by hand');
    await server.del(KEY);
    await eventually(() => history.writes.length === 3, 'three writes');

    expect(history.writes.map(({ chatId, value, before, server: by }) => ({ chatId, value, before, by }))).toEqual([
      { chatId: '284619375016482817', value: 'first', before: null, by: 7 },
      { chatId: '284619375016482817', value: 'by hand', before: 'first', by: undefined },
      { chatId: '284619375016482817', value: null, before: 'by hand', by: 7 },
    ]);
    expect(history.writes[0]?.atUs).toBeGreaterThanOrEqual(started - 1_000_000);
    expect(history.lastWriteUs).toBe(history.writes[2]?.atUs);
  });

  it('does not know what a Redis restarted from a snapshot holds: the next write has no `before`', async () => {
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const history = await startRedisHistory(redis.port, () => undefined);
    cleanups.push(() => history.close());
    await redis.command('SET', KEY, 'kept');
    const snapshot = await redis.snapshot();
    await redis.command('SET', KEY, 'lost');
    await redis.restartFrom(snapshot);
    await history.follow(redis.port);
    await redis.command('SET', KEY, 'after');
    await eventually(() => history.writes.length === 3, 'three writes');
    expect(history.writes.map(({ value, before }) => [value, before])).toEqual([
      ['kept', null],
      ['lost', 'kept'],
      ['after', undefined],
    ]);
  });
});
