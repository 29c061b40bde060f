// What Redis holds under our keys is read like a panel answer: another program may have written there. A value that
// does not read is passed over, and a key of another type is set aside.
import type { Logger } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import type { CommunityLink, ReadShared } from './community.js';

/**
 * Reads what Redis holds under our keys like a panel answer: another program (or an older bridge) may have written
 * anything there. A value that does not read is set aside with one line per place it was found, and the caller goes
 * on as if there were nothing: never trusted, never fatal. Everything the bridge writes to Redis is JSON (a number
 * in a hash field is JSON too), so a string is read as JSON; a script's array answer is read as it is.
 */
export function sharedReader(logger: Logger): ReadShared {
  return (schema, raw, what) => {
    if (raw === null || raw === undefined) return undefined;
    let value: unknown = raw;
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch {
        logger.once(
          `redis-unreadable:${what}`,
          'warn',
          `Redis holds something under ${what} that is not JSON; it is set aside`,
        );
        return undefined;
      }
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    logger.once(
      `redis-unreadable:${what}`,
      'warn',
      `Redis holds something under ${what} that does not read (${parsed.error.message.replace(/\s+/g, ' ')}); it is set aside`,
    );
    return undefined;
  };
}

/**
 * A key of ours that holds another type than the bridge writes there (another program wrote it) fails every command
 * with WRONGTYPE: it is renamed to `<key>:set-aside`, where an owner can look at it, with one line, and the bridge
 * writes its own again. Any other failure is Redis being gone or slow, which the caller handles. Says whether the
 * failure was a WRONGTYPE.
 * `keys`: each key the failed command touched, with the Redis type the bridge keeps there.
 */
// Checked and renamed in one step: a value the bridge wrote meanwhile is never the one set aside.
const SET_ASIDE = `
local type = redis.call('TYPE', KEYS[1]).ok
if type == 'none' or type == ARGV[1] then return false end
redis.call('RENAME', KEYS[1], KEYS[2])
return type`;

export function setAsideWrongType(
  link: CommunityLink,
  error: unknown,
  keys: Readonly<Record<string, 'string' | 'hash' | 'zset'>>,
  logger: Logger,
): boolean {
  if (!errorText(error).includes('WRONGTYPE')) return false;
  for (const [key, expected] of Object.entries(keys)) {
    void link
      // Both keys named to the script, as Redis asks of every key a script touches.
      .script<string | null>(SET_ASIDE, [key, `${key}:set-aside`], [expected])
      .then((type) => {
        if (!type) return;
        logger.warn(
          `Redis holds a ${type} under ${key}, not the ${expected} the bridge keeps there; it is set aside as ${key}:set-aside`,
        );
      })
      .catch(() => {});
  }
  return true;
}
