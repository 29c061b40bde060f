// Integers beyond int32 packed as msgpack int64 at FiveM's boundary, checked with msgpack-lite and FiveM's codec
// options (sim/codec/msgpack.ts), whose writer is the one FiveM's msgpack.js forks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wiredExport, wireIntegers } from '../../shared/wire-integers.js';
import { pack, unpack } from '../../sim/codec/msgpack.js';

const INT64 = 0xd3;
const FLOAT64 = 0xcb;
const roundTrip = (value: unknown) => unpack(pack(value, null), null);

describe('wireIntegers', () => {
  it('packs an epoch-ms time as a msgpack int64 that a JS receiver reads back as the same number', () => {
    const since = 1_795_848_236_558;
    expect(pack(since, null)[0]).toBe(FLOAT64);
    const packed = pack(wireIntegers(since), null);
    expect(packed[0]).toBe(INT64);
    expect(unpack(packed, null)).toBe(since);
  });

  it('round-trips every safe integer, as int64 outside int32 and as it was inside', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const packed = pack(wireIntegers(n), null);
        expect(unpack(packed, null)).toBe(n);
        expect(packed[0] === INT64).toBe(n !== (n | 0));
      }),
    );
  });

  it('reaches into plain objects and arrays, and keeps functions, fractions and strings', () => {
    const setActive = () => true;
    const value = {
      ok: true,
      since: 1_795_848_236_558,
      departments: [{ id: 1, setActive, rank: { id: 2 } }],
      ratio: 2.5,
      big: 2 ** 60,
      chatId: '284619375016482817',
    };
    const wired = wireIntegers(value);
    expect(wired.departments[0]?.setActive).toBe(setActive);
    const { departments, ...rest } = value;
    expect(roundTrip({ ...wired, departments: [{ id: 1, rank: { id: 2 } }] })).toEqual({
      ...rest,
      departments: [{ id: 1, rank: { id: 2 } }],
    });
    expect(value.since).toBe(1_795_848_236_558);
  });

  it('returns a value with nothing to change as it is, without a copy', () => {
    const value = { onDuty: false, departments: [{ id: 1 }], since: null };
    expect(wireIntegers(value)).toBe(value);
  });
});

/** The msgpack type byte of `since` in `{ since }`: after the one-entry map byte and the key, 0xa5 'since'. */
const sinceType = (value: unknown) => pack(value, null)[1 + 1 + 'since'.length];

describe('wiredExport', () => {
  it('wires the result, a promise’s value and what a callback it was given receives', async () => {
    const since = 1_795_848_236_558;
    expect(sinceType({ since })).toBe(FLOAT64);
    const received: unknown[] = [];
    const exportFn = wiredExport((callback: (outcome: { since: number }) => void) => {
      callback({ since });
      return { since };
    });
    expect(sinceType(exportFn((outcome: unknown) => received.push(outcome)))).toBe(INT64);
    expect(received.map(sinceType)).toEqual([INT64]);
    expect(sinceType(await wiredExport(async () => ({ since }))())).toBe(INT64);
  });
});
