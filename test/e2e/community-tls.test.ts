// rediss:// with the owner's own CA, end to end: BRIDGE_REDIS_CA_FILE names a PEM file in the bridge's folder (where
// FXServer's Node sandbox lets the resource read), dist/server.js resolves it from there and dist/redis.cjs trusts it.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../support/redis-server.js';
import { makeTlsFiles, opensslAvailable, type TlsFiles } from '../support/tls-certificates.js';
import { bridgeFolder } from './support/community.js';
import { startWorld, type World } from './support/world.js';

describe.skipIf(!redisAvailable() || !opensslAvailable())('BRIDGE_REDIS_CA_FILE', () => {
  let world: World | undefined;
  let redis: RedisServer | undefined;
  let files: TlsFiles | undefined;
  let folder: { dir: string; remove: () => void } | undefined;
  afterEach(async () => {
    await world?.close();
    await redis?.stop();
    files?.remove();
    folder?.remove();
    world = redis = files = folder = undefined;
  });

  const lines = (of: World, level: string) =>
    of.sim.console.map((line) => line.text).filter((text) => text.startsWith(level));

  it('rediss:// to a Redis of a private CA, the CA in the bridge folder: the server joins the community', async () => {
    files = makeTlsFiles('ca');
    redis = await startRedisServer({ tls: files });
    folder = bridgeFolder();
    copyFileSync(files.caFile, join(folder.dir, 'redis-ca.pem'));
    world = await startWorld({
      bridgeDir: folder.dir,
      moreConvars: { BRIDGE_REDIS_URL: redis.url(), BRIDGE_REDIS_CA_FILE: 'redis-ca.pem' },
    });
    const { sim } = world;
    await sim.until(() => world?.consoleText().includes('one of a community on Redis') ?? false, 10_000, 'Redis');
    expect(world.consoleText()).toContain(`one of a community on Redis at rediss://127.0.0.1:${redis.port}/0`);
    expect(lines(world, 'ERROR')).toEqual([]);
    expect(lines(world, 'WARN')).toEqual([]);
    await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    sim.assertNoErrors();
  });

  it('a CA file that is not there: one ERROR naming BRIDGE_REDIS_CA_FILE and where it looked; the server serves alone', async () => {
    files = makeTlsFiles('ca');
    redis = await startRedisServer({ tls: files });
    folder = bridgeFolder();
    world = await startWorld({
      bridgeDir: folder.dir,
      moreConvars: { BRIDGE_REDIS_URL: redis.url(), BRIDGE_REDIS_CA_FILE: 'certs/redis-ca.pem' },
    });
    expect(lines(world, 'ERROR')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ERROR: BRIDGE_REDIS_CA_FILE names ${join(folder.dir, 'certs', 'redis-ca.pem').replaceAll('/', '\\/')}, which cannot be read \\(ENOENT.*\\); FXServer's Node reads only files inside a resource folder.* Until then this server runs alone\\.$`,
        ),
      ),
    ]);
    await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    expect(world.consoleText()).not.toContain('one of a community');
  });

  it('a CA file with redis:// (no TLS): one WARN that it is not used, and the server joins over plain Redis', async () => {
    redis = await startRedisServer();
    folder = bridgeFolder();
    world = await startWorld({
      bridgeDir: folder.dir,
      moreConvars: { BRIDGE_REDIS_URL: redis.url(), BRIDGE_REDIS_CA_FILE: 'redis-ca.pem' },
    });
    await world.sim.until(() => world?.consoleText().includes('one of a community') ?? false, 10_000, 'Redis');
    expect(lines(world, 'WARN')).toEqual([
      'WARN: BRIDGE_REDIS_CA_FILE is set but BRIDGE_REDIS_URL is redis://, without TLS: the CA is not used. Write rediss:// to reach Redis over TLS.',
    ]);
  });
});
