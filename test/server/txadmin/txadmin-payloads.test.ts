// txAdmin's payloads as they reach a JS handler (Lua's json.decode, then msgpack): read tolerantly, the field names
// of older versions included, never a throw.
import { describe, expect, it } from 'vitest';
import {
  banTargetsOf,
  kickTargetOf,
  RestartNotices,
  secondsRemainingOf,
  shutdownDelayOf,
} from '../../../server/edge/txadmin.js';

describe("txAdmin's payloads", () => {
  it('read the shutdown delay in ms, as a number or a numeric string, and 5000 (its default) otherwise', () => {
    expect(shutdownDelayOf({ delay: 3000, author: 'txAdmin', message: 'x' })).toBe(3000);
    expect(shutdownDelayOf({ delay: '0' })).toBe(0);
    for (const data of [{}, { delay: -1 }, { delay: 'soon' }, null, 'x', [1]]) expect(shutdownDelayOf(data)).toBe(5000);
  });

  it('read the seconds before a scheduled restart, or nothing', () => {
    expect(secondsRemainingOf({ secondsRemaining: 300, translatedMessage: 'x' })).toBe(300);
    expect(secondsRemainingOf({ secondsRemaining: '60' })).toBe(60);
    for (const data of [{}, { secondsRemaining: 1.5 }, { secondsRemaining: -60 }, undefined]) {
      expect(secondsRemainingOf(data)).toBeUndefined();
    }
  });

  it('read a kick of one player, of everyone (-1, since v8.0), or nothing usable', () => {
    expect(kickTargetOf({ target: 7, author: 'a', reason: 'r', dropMessage: 'd' })).toBe(7);
    expect(kickTargetOf({ target: '7' })).toBe(7);
    expect(kickTargetOf({ target: -1 })).toBe('everyone');
    expect(kickTargetOf({ targetNetId: 9 })).toBe(9);
    for (const data of [{}, { target: 0 }, { target: 'all' }, null]) expect(kickTargetOf(data)).toBeUndefined();
  });

  it('read a ban: the player it names (targetNetId, or target before v5.0) and the identifiers banned', () => {
    expect(banTargetsOf({ targetNetId: 3, targetIds: ['license:a', 'discord:1'], targetHwids: [] })).toEqual({
      netId: 3,
      identifiers: ['license:a', 'discord:1'],
    });
    expect(banTargetsOf({ target: '4', targetIds: ['license:b', 5, null] })).toEqual({
      netId: 4,
      identifiers: ['license:b'],
    });
    // A ban of identifiers only, of a player who is not connected.
    expect(banTargetsOf({ targetNetId: null, targetIds: ['license:c'] })).toEqual({
      netId: undefined,
      identifiers: ['license:c'],
    });
    expect(banTargetsOf('nonsense')).toEqual({ netId: undefined, identifiers: [] });
  });
});

describe('the restart notices', () => {
  const heard = (notices: RestartNotices, minutes: number[]) => minutes.filter((m) => notices.heard(m * 60));

  it("tell at txAdmin's 5 and 1 minute warnings, once each", () => {
    expect(heard(new RestartNotices(), [30, 15, 10, 5, 4, 3, 2, 1])).toEqual([5, 1]);
  });

  it('tell at the first warning a late start hears, then at 1 minute', () => {
    expect(heard(new RestartNotices(), [3, 2, 1])).toEqual([3, 1]);
    expect(heard(new RestartNotices(), [1])).toEqual([1]);
  });

  it('tell again for the next restart, and once for a warning repeated', () => {
    const notices = new RestartNotices();
    expect(heard(notices, [5, 5, 1, 1])).toEqual([5, 1]);
    expect(heard(notices, [30, 10, 5, 1])).toEqual([5, 1]);
  });
});
