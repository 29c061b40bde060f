// The connection to the community's Redis against a real redis-server: it never makes the bridge wait, and its
// going and coming back are one line each, naming BRIDGE_REDIS_URL, with the password masked.
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { communityId, communityPrefix } from '../../../server/community/communities.js';
import { openRedisLink } from '../../../server/community/redis-link.js';
import { parseRedisUrl } from '../../../server/community/redis-settings.js';
import { createLogger } from '../../../server/kernel/log.js';
import { REDIS_URL_CONVAR, redisSecretsOf } from '../../../server/kernel/redis-convar.js';
import { type RedisServer, redisAvailable, startRedisServer } from '../../support/redis-server.js';

const PASSWORD = 'Zq7rDs91xvLpW3';

function linkTo(url: string) {
  const lines: string[] = [];
  const logger = createLogger({ print: (line) => lines.push(line), wholeSecrets: () => redisSecretsOf(url) });
  const parsed = parseRedisUrl(url);
  if (!parsed.ok) throw new Error(parsed.error);
  const link = openRedisLink({ target: parsed.target, panel: 'http://panel.test', logger });
  return { link, lines };
}

const upAgain = (link: { up$: import('rxjs').Observable<boolean> }, value: boolean) =>
  firstValueFrom(link.up$.pipe(filter((up) => up === value)));

describe.skipIf(!redisAvailable())('the Redis link', () => {
  let redis: RedisServer;
  let close: (() => void) | undefined;
  beforeAll(async () => {
    redis = await startRedisServer({ password: PASSWORD });
    return () => redis.stop();
  });
  afterEach(() => {
    close?.();
    close = undefined;
  });

  it('connects, says once where the community is, and runs commands and scripts', async () => {
    const { link, lines } = linkTo(redis.url());
    close = () => link.close();
    const connected = firstValueFrom(link.connected$);
    await connected;
    expect(link.isUp).toBe(true);
    expect(await link.call('PING')).toBe('PONG');
    expect(await link.script('return ARGV[1] + 1', [], [41])).toBe(42);
    expect(lines).toEqual([
      `INFO: this server is one of a community on Redis at redis://***@127.0.0.1:${redis.port}/0 (${REDIS_URL_CONVAR}): community ${communityId('http://panel.test')} of the panel http://panel.test, keys ${communityPrefix('http://panel.test')}*`,
    ]);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('with a wrong password: one WARN naming BRIDGE_REDIS_URL, the password masked, calls refused at once', async () => {
    const { link, lines } = linkTo(redis.url({ password: 'wrong-password-given' }));
    close = () => link.close();
    await firstValueFrom(link.up$.pipe(filter((up) => !up)));
    await expect(link.call('PING')).rejects.toThrow();
    const warnings = lines.filter((line) => line.startsWith('WARN'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`(${REDIS_URL_CONVAR})`);
    expect(warnings[0]).toMatch(/WRONGPASS|NOAUTH|invalid/i);
    expect(lines.join('\n')).not.toContain('wrong-password-given');
  });

  it('unreachable at start: one WARN, and a call is refused without waiting for a connection', async () => {
    const { link, lines } = linkTo(`redis://127.0.0.1:${await closedPort()}/0`);
    close = () => link.close();
    await expect(link.call('PING')).rejects.toThrow(/enableOfflineQueue|writeable/);
    await firstValueFrom(link.up$.pipe(filter((up) => !up)));
    expect(lines.filter((line) => line.startsWith('WARN'))).toEqual([
      expect.stringMatching(
        /^WARN: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(BRIDGE_REDIS_URL\) does not answer \(.*ECONNREFUSED/,
      ),
    ]);
  });

  it('unreachable at start, then it answers: the INFO line names the community and its panel, as a first start does', async () => {
    const late = await startRedisServer();
    try {
      await late.kill();
      const { link, lines } = linkTo(late.url());
      close = () => link.close();
      await firstValueFrom(link.up$.pipe(filter((up) => !up)));
      const up = firstValueFrom(link.connected$);
      await late.restart();
      await up;
      expect(lines).toEqual([
        expect.stringMatching(/^WARN: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(BRIDGE_REDIS_URL\) does not answer/),
        `INFO: this server is one of a community on Redis at redis://127.0.0.1:${late.port}/0 (${REDIS_URL_CONVAR}): community ${communityId('http://panel.test')} of the panel http://panel.test, keys ${communityPrefix('http://panel.test')}*`,
      ]);
    } finally {
      await late.stop();
    }
  });

  it('killed with -9 mid-run, then restarted empty: one WARN, one INFO, connected$ again, scripts run again', async () => {
    const { link, lines } = linkTo(redis.url());
    close = () => link.close();
    await firstValueFrom(link.connected$);
    expect(await link.script('return 1', [], [])).toBe(1);
    const down = upAgain(link, false);
    await redis.kill();
    await down;
    await expect(link.call('PING')).rejects.toThrow();
    const again = firstValueFrom(link.connected$);
    await redis.restart();
    await again;
    // The restarted Redis has no script cache: EVALSHA's NOSCRIPT falls back to EVAL once.
    expect(await link.script('return 1', [], [])).toBe(1);
    expect(lines.filter((line) => line.startsWith('WARN'))).toEqual([
      expect.stringContaining(`(${REDIS_URL_CONVAR}) is gone`),
    ]);
    expect(lines.filter((line) => line.includes('answers again'))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('messages$: hears what is published, also when Redis only came up after the subscription was asked for', async () => {
    const late = await startRedisServer();
    try {
      await late.kill();
      const { link } = linkTo(late.url());
      close = () => link.close();
      const heard: string[] = [];
      const subscription = link.messages$('bridge:test:news').subscribe((message) => heard.push(message));
      await firstValueFrom(link.up$.pipe(filter((up) => !up)));
      // The subscribing connection's first attempt was refused as the main one's was: the subscription must outlive it.
      const up = firstValueFrom(link.connected$);
      await late.restart();
      await up;
      for (let tries = 0; heard.length === 0 && tries < 50; tries++) {
        await late.command('PUBLISH', 'bridge:test:news', `hello ${tries}`);
      }
      expect(heard[0]).toMatch(/^hello \d+$/);
      subscription.unsubscribe();
    } finally {
      await late.stop();
    }
  });

  it('a slow Redis: a call fails after the short command timeout instead of holding the caller', async () => {
    const { link } = linkTo(redis.url());
    close = () => link.close();
    await firstValueFrom(link.connected$);
    await redis.command('CLIENT', 'PAUSE', '1500', 'ALL');
    await expect(link.call('GET', 'x')).rejects.toThrow(/timed out/i);
  });
});

async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('BRIDGE_REDIS_URL', () => {
  it.each([
    ['not a url', 'is not a URL'],
    ['http://127.0.0.1:6379', 'must start with redis:// or rediss://'],
    ['redis://:secret-pass@127.0.0.1:6379/zero', 'the path must be a database number'],
    ['redis://127.0.0.1:6379/0?tls=1', 'must not hold a query'],
  ])('%s: one clear error naming the convar and how to set it', (raw, problem) => {
    const parsed = parseRedisUrl(raw);
    expect(parsed.ok).toBe(false);
    const { error } = parsed as { error: string };
    expect(error).toContain(REDIS_URL_CONVAR);
    expect(error).toContain(problem);
    expect(error).toContain(`set ${REDIS_URL_CONVAR} "redis://`);
    expect(error).not.toContain('secret-pass');
  });

  it('reads redis:// and rediss:// (TLS), user and password, and masks the password wherever it is shown', () => {
    expect(parseRedisUrl('rediss://bridge:p%40ss@redis.example.com:6380/2')).toMatchObject({
      ok: true,
      target: {
        url: 'rediss://bridge:p%40ss@redis.example.com:6380/2',
        where: 'rediss://***@redis.example.com:6380/2',
        tls: true,
      },
    });
    expect(redisSecretsOf('rediss://bridge:p%40ss@redis.example.com:6380/2')).toEqual([
      'rediss://bridge:p%40ss@redis.example.com:6380/2',
      '//bridge:p%40ss@',
    ]);
    expect(redisSecretsOf('redis://127.0.0.1:6379')).toEqual([]);
    expect(redisSecretsOf('')).toEqual([]);
  });

  it('keys are namespaced by a hash of the panel address, never by the token', () => {
    const prefix = communityPrefix('https://panel.example.com');
    expect(prefix).toMatch(/^bridge:[0-9a-f]{16}:$/);
    expect(communityPrefix('https://panel.example.com')).toBe(prefix);
    expect(communityPrefix('https://other-panel.example.com')).not.toBe(prefix);
  });
});
