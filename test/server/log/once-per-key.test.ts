import { describe, expect, it } from 'vitest';
import { createLogger, OncePerKey } from '../../../server/kernel/log.js';

describe('told once per key', () => {
  it('the logger tells a key once, says whether it spoke, and tells it again once forgotten', () => {
    const lines: string[] = [];
    const logger = createLogger({ print: (line) => lines.push(line) });
    expect(logger.once('fault', 'warn', 'the panel is slow')).toBe(true);
    expect(logger.once('fault', 'warn', 'the panel is slow')).toBe(false);
    // Below the level, the first time is still the first time: the key is spent, nothing is printed.
    expect(logger.once('detail', 'debug', 'a detail')).toBe(true);
    logger.forget('fault');
    expect(logger.once('fault', 'warn', 'the panel is slow again')).toBe(true);
    expect(lines).toEqual(['WARN: the panel is slow', 'WARN: the panel is slow again']);
  });

  it('forgets one key or all of them, and says whether any had been told', () => {
    const told = new OncePerKey<number>();
    expect(told.forgetAll()).toBe(false);
    expect([told.first(1), told.first(2), told.first(1)]).toEqual([true, true, false]);
    expect(told.forget(3)).toBe(false);
    expect(told.forget(2)).toBe(true);
    expect(told.first(2)).toBe(true);
    expect(told.forgetAll()).toBe(true);
    expect(told.forgetAll()).toBe(false);
    expect(told.first(1)).toBe(true);
  });
});
