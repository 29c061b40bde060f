// Issue 31, "Redis for an owner" items 2 and 3, against real redis-servers (one with a password, TLS ones with a private
// CA and with a self-signed certificate): a wrong or missing password, or TLS on one side only, is one WARN that says
// what is wrong and what to set; `rediss://` with your own CA works once BRIDGE_REDIS_CA_FILE names it.
import { readFileSync } from 'node:fs';
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedisLink } from '../../../server/community/redis-link.js';
import { parseRedisUrl } from '../../../server/community/redis-settings.js';
import { createLogger } from '../../../server/kernel/log.js';
import { REDIS_CA_FILE_CONVAR, REDIS_URL_CONVAR, redisSecretsOf } from '../../../server/kernel/redis-convar.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';
import { makeTlsFiles, opensslAvailable, type TlsFiles } from '../../support/tls-certificates.js';

const PASSWORD = 'Rb5Tn8Wq2Xv7Kc4';

function linkTo(url: string, ca?: Buffer) {
  const lines: string[] = [];
  const logger = createLogger({ print: (line) => lines.push(line), wholeSecrets: () => redisSecretsOf(url) });
  const parsed = parseRedisUrl(url);
  if (!parsed.ok) throw new Error(parsed.error);
  const link = openRedisLink({ target: parsed.target, panel: 'http://panel.test', logger, ca });
  const warned = async () => {
    await firstValueFrom(link.up$.pipe(filter((up) => !up)));
    for (let tries = 0; !lines.some((line) => line.startsWith('WARN')) && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return lines.filter((line) => line.startsWith('WARN'));
  };
  return { link, lines, warned };
}

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  close = undefined;
});

describe.skipIf(!redisAvailable())('a Redis with a password', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer({ password: PASSWORD });
  });
  afterAll(() => redis.stop());

  it('no password in the URL (NOAUTH): the WARN says Redis wants one, and the shape to set', async () => {
    const { link, lines, warned } = linkTo(`redis://127.0.0.1:${redis.port}/0`);
    close = () => link.close();
    expect(await warned()).toEqual([
      expect.stringContaining(
        `(NOAUTH): Redis wants a password and ${REDIS_URL_CONVAR} gives none; set ${REDIS_URL_CONVAR} "redis://:<password, percent-encoded>@127.0.0.1:${redis.port}/0"`,
      ),
    ]);
    expect(lines).toHaveLength(1);
  });

  it('a wrong password (WRONGPASS): the WARN says Redis refused it and what to set, the password in no line', async () => {
    const { link, lines, warned } = linkTo(`redis://:Zz9wrongPassw0rd@127.0.0.1:${redis.port}/0`);
    close = () => link.close();
    expect(await warned()).toEqual([
      expect.stringContaining(
        `(WRONGPASS): Redis refused the user and password; set in ${REDIS_URL_CONVAR} the password Redis has (its requirepass, or the ACL user's), percent-encoded: "redis://:<password, percent-encoded>@127.0.0.1:${redis.port}/0"`,
      ),
    ]);
    expect(lines.join('\n')).not.toContain('Zz9wrongPassw0rd');
  });

  it('the password written as the user (no colon before it): the WARN says so', async () => {
    const { link, lines, warned } = linkTo(`redis://${PASSWORD}@127.0.0.1:${redis.port}/0`);
    close = () => link.close();
    expect(await warned()).toEqual([
      expect.stringContaining('the URL has no ":" before the password, so Redis read it as a user name'),
    ]);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('rediss:// to its plain port: a hint that the port speaks Redis without TLS, not only a timeout', async () => {
    const { link, warned } = linkTo(`rediss://:${PASSWORD}@127.0.0.1:${redis.port}/0`);
    close = () => link.close();
    expect(await warned()).toEqual([
      expect.stringMatching(
        /does not answer \(.*\): that port speaks Redis without TLS; write redis:\/\/, or give the port of Redis's tls-port; this server serves/,
      ),
    ]);
  });
});

describe.skipIf(!redisAvailable() || !opensslAvailable())('a Redis on TLS only', () => {
  let files: TlsFiles;
  let selfSigned: TlsFiles;
  let redis: RedisServer;
  let selfSignedRedis: RedisServer;
  beforeAll(async () => {
    files = makeTlsFiles('ca');
    selfSigned = makeTlsFiles('self-signed');
    redis = await startRedisServer({ tls: files });
    selfSignedRedis = await startRedisServer({ tls: selfSigned });
  });
  afterAll(async () => {
    await redis.stop();
    await selfSignedRedis.stop();
    files.remove();
    selfSigned.remove();
  });

  it('rediss:// with the private CA given: connects, and runs commands', async () => {
    const { link, lines } = linkTo(redis.url(), readFileSync(files.caFile));
    close = () => link.close();
    await firstValueFrom(link.connected$);
    expect(await link.call('PING')).toBe('PONG');
    expect(lines).toEqual([expect.stringMatching(/^INFO: this server is one of a community on Redis at rediss:\/\//)]);
  });

  it('rediss:// to a self-signed certificate, the certificate itself given as the CA: connects', async () => {
    const { link } = linkTo(selfSignedRedis.url(), readFileSync(selfSigned.caFile));
    close = () => link.close();
    await firstValueFrom(link.connected$);
    expect(await link.call('PING')).toBe('PONG');
  });

  it('rediss:// to a private CA without BRIDGE_REDIS_CA_FILE: the WARN says to name the CA there', async () => {
    const { link, warned } = linkTo(redis.url());
    close = () => link.close();
    expect(await warned()).toEqual([
      expect.stringContaining(
        `this server does not trust Redis's TLS certificate; name the file of the CA that signed it, or of the self-signed certificate itself, in ${REDIS_CA_FILE_CONVAR}`,
      ),
    ]);
  });

  it('redis:// to the TLS port: a hint that the port speaks TLS, not only a reset connection', async () => {
    const { link, warned } = linkTo(redis.url().replace('rediss://', 'redis://'));
    close = () => link.close();
    expect(await warned()).toEqual([
      expect.stringMatching(/does not answer \(.*\): that port speaks TLS \(Redis's tls-port\); write rediss:\/\//),
    ]);
  });
});
