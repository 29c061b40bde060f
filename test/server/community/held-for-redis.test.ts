import { describe, expect, it } from 'vitest';
import { HeldForRedis } from '../../../server/community/held-for-redis.js';

describe('what waits for Redis', () => {
  it('lists each call from when it was held until it is released, the longest waiting first', () => {
    let now = 1_000;
    const held = new HeldForRedis(() => now);
    const first = held.hold('off duty of chat account 284619375016482817');
    now = 4_000;
    const second = held.hold('off duty of chat account 519283746501928374');
    expect(held.list()).toEqual([
      { what: 'off duty of chat account 284619375016482817', since: 1_000 },
      { what: 'off duty of chat account 519283746501928374', since: 4_000 },
    ]);
    first();
    first();
    expect(held.list()).toEqual([{ what: 'off duty of chat account 519283746501928374', since: 4_000 }]);
    second();
    expect(held.list()).toEqual([]);
  });
});
