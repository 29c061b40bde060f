// Issue 31, "Redis for an owner" item 1: the Redis password is never printed, in any form, and masking it never garbles
// an ordinary word. Everything between `//` and the last `@` is masked, or the whole value when it does not read.
import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../../server/community/redis-settings.js';
import type { Logger } from '../../../server/kernel/log.js';
import { maskRedisUrl, REDIS_URL_CONVAR } from '../../../server/kernel/redis-convar.js';
import { readBridgeSettings } from '../../../server/kernel/settings.js';

/** The bridge's logger as it starts with BRIDGE_REDIS_URL set to `raw`, and the lines it printed. */
function loggerWith(raw: string): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const convars: Record<string, string> = { [REDIS_URL_CONVAR]: raw };
  const { logger } = readBridgeSettings({
    print: (line) => lines.push(line),
    readConfig: () => ({ value: {} }),
    convar: (name) => convars[name] ?? '',
  });
  lines.length = 0;
  return { logger, lines };
}

/** What the owner sees of `raw` in every line: the console through the logger that knows BRIDGE_REDIS_URL's secrets. */
function shown(raw: string): string[] {
  const { logger, lines } = loggerWith(raw);
  const parsed = parseRedisUrl(raw);
  logger.error(parsed.ok ? `Redis at ${parsed.target.where}` : parsed.error);
  // A line that quotes the value as set, as an upstream error might.
  logger.warn(`the convar is ${raw}`);
  return lines;
}

// Passwords as owners make them: `openssl rand -base64` (with / and +), with @ and #, and the typos that leaked.
const LEAKS: Array<[string, string, string]> = [
  ['a / in the password (base64)', 'redis://:q7/Kd2+Wm9xZ3fT1vB==@10.0.0.5:6379/0', 'q7/Kd2+Wm9xZ3fT1vB=='],
  ['an @ in the password', 'redis://:Pv8@Lm3Qz7Rt1@10.0.0.5:6379/0', 'Pv8@Lm3Qz7Rt1'],
  ['an unencoded # in the password', 'redis://:Hq5#Ws2Ne8Yk@10.0.0.5:6379/0', 'Hq5#Ws2Ne8Yk'],
  ['a missing colon after the scheme', 'redis//:Tz4Jx9Cv2Bn7@10.0.0.5:6379/0', 'Tz4Jx9Cv2Bn7'],
  ['the password in the user part', 'redis://Gm6Rf3Dp8Ls1@10.0.0.5:6379/0', 'Gm6Rf3Dp8Ls1'],
  ['a user and a password with / and @', 'rediss://bridge:a/b@c9Xw2Qe7@10.0.0.5:6380/1', 'a/b@c9Xw2Qe7'],
  ['no host after the password', 'redis://:Wd3Kp8Zr5Hy2', 'Wd3Kp8Zr5Hy2'],
  ['the password in a query', 'redis://10.0.0.5:6379/0?password=Nc7Vb2Mx9Lq4', 'Nc7Vb2Mx9Lq4'],
];

describe('the Redis password in BRIDGE_REDIS_URL', () => {
  it.each(LEAKS)('%s: never printed, nor any piece of it, nor its percent-decoded form', (_case, raw, password) => {
    const lines = shown(raw);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(password);
      expect(line).not.toContain(encodeURIComponent(password));
      for (const part of password.split(/[/@#+=]/).filter((piece) => piece.length >= 4))
        expect(line).not.toContain(part);
    }
  });

  it.each([
    ['redis://:q7/Kd2+Wm9xZ3fT1vB==@10.0.0.5:6379/0', 'redis://***@10.0.0.5:6379/0'],
    ['rediss://bridge:a/b@c9Xw2Qe7@10.0.0.5:6380/1', 'rediss://***@10.0.0.5:6380/1'],
    ['redis//:Tz4Jx9Cv2Bn7@10.0.0.5:6379/0', 'redis//***@10.0.0.5:6379/0'],
    ['redis://Gm6Rf3Dp8Ls1@10.0.0.5:6379/0', 'redis://***@10.0.0.5:6379/0'],
    ['redis://10.0.0.5:6379/0?password=Nc7Vb2Mx9Lq4', 'redis://10.0.0.5:6379/0?***'],
    ['  redis://:x@127.0.0.1:6379  ', 'redis://***@127.0.0.1:6379'],
    // Not a URL at all: nothing tells where a password would stand, so all of it.
    ['redis:/:Pq2Wn8Xc4Lm6@10.0.0.5', '***'],
    [':Pq2Wn8Xc4Lm6@10.0.0.5', '***'],
    ['redis://:Wd3Kp8Zr5Hy2', '***'],
    // Nothing to hide: shown as written.
    ['redis://127.0.0.1:6379/0', 'redis://127.0.0.1:6379/0'],
    ['rediss://redis.example.com:6380', 'rediss://redis.example.com:6380'],
  ])('%s is shown as %s', (raw, masked) => {
    expect(maskRedisUrl(raw)).toBe(masked);
  });

  it.each([
    ['redis', 'redis://:redis@127.0.0.1:6379/0'],
    ['host', 'redis://:host@127.0.0.1:6379/0'],
    ['community', 'redis://:community@127.0.0.1:6379/0'],
    ['answers', 'redis://answers@127.0.0.1:6379/0'],
  ])('a password that is an ordinary word (%s) masks no word of any line', (_word, raw) => {
    const { logger, lines } = loggerWith(raw);
    const prose =
      'this server is one of a community on Redis at redis://***@127.0.0.1:6379/0; the host answers, and redis-server runs';
    logger.info(prose);
    expect(lines).toEqual([`INFO: ${prose}`]);
  });

  it.each([
    [
      'a / in the password',
      'redis://:q7/Kd2+Wm9xZ3fT1vB==@10.0.0.5:6379/0',
      'redis://:<password, percent-encoded>@10.0.0.5:6379/0',
    ],
    ['an unencoded #', 'redis://:Hq5#Ws2Ne8Yk@10.0.0.5:6379/0', 'redis://:<password, percent-encoded>@10.0.0.5:6379/0'],
    [
      'a % that encodes nothing',
      'redis://:Ab%zz12@10.0.0.5:6379/0',
      'redis://:<password, percent-encoded>@10.0.0.5:6379/0',
    ],
    [
      'a user, and a / in the password',
      'rediss://bridge:a/b@c9Xw2Qe7@10.0.0.5:6380/1',
      'rediss://<user>:<password, percent-encoded>@10.0.0.5:6380/1',
    ],
    [
      'a missing colon after the scheme',
      'redis//:Tz4Jx9Cv2Bn7@10.0.0.5:6379/0',
      'redis://:<password, percent-encoded>@10.0.0.5:6379/0',
    ],
  ])(
    '%s: one clear error, the password masked, with the shape to set and how to percent-encode',
    (_case, raw, shape) => {
      const parsed = parseRedisUrl(raw);
      expect(parsed.ok).toBe(false);
      const { error } = parsed as { error: string };
      expect(error).toContain(`${REDIS_URL_CONVAR} "${maskRedisUrl(raw)}"`);
      expect(error).toContain(`set ${REDIS_URL_CONVAR} "${shape}"`);
      expect(error).toContain('/ as %2F');
      expect(error).toContain('# as %23');
    },
  );

  it('an @ in the password reads as Redis clients read it (the last @ ends the password), masked all the same', () => {
    expect(parseRedisUrl('redis://:Pv8@Lm3Qz7Rt1@10.0.0.5:6379/0')).toEqual({
      ok: true,
      target: {
        url: 'redis://:Pv8@Lm3Qz7Rt1@10.0.0.5:6379/0',
        where: 'redis://***@10.0.0.5:6379/0',
        tls: false,
        host: '10.0.0.5',
        port: 6379,
        shape: 'redis://:<password, percent-encoded>@10.0.0.5:6379/0',
        userWithoutPassword: false,
      },
    });
    expect(parseRedisUrl('rediss://redis.example.com/2')).toMatchObject({
      target: { port: 6379, shape: 'rediss://:<password, percent-encoded>@redis.example.com/2' },
    });
    expect(parseRedisUrl('redis://Gm6Rf3Dp8Ls1@10.0.0.5:6379/0')).toMatchObject({
      target: { userWithoutPassword: true },
    });
  });
});
