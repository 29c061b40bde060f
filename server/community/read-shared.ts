import type { Logger } from '../kernel/index.js';
import type { ReadShared } from './community.js';

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
