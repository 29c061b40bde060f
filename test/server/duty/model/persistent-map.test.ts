import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entriesInOrder, PersistentMap } from '../../../../server/duty/duty-model.js';

describe('PersistentMap', () => {
  it('answers like a Map after any run of sets and deletes, and leaves every earlier map as it was', () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.stringMatching(/^\d{18,19}$/));
    const op = fc.record({ set: fc.boolean(), key, value: fc.integer() });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const reference = new Map<string | number, number>();
        let map = PersistentMap.empty<string | number, number>();
        const history: Array<[PersistentMap<string | number, number>, Array<[string | number, number]>]> = [];
        for (const { set, key, value } of ops) {
          if (set) {
            reference.set(key, value);
            map = map.set(key, value);
          } else {
            reference.delete(key);
            map = map.delete(key);
          }
          history.push([map, [...reference.entries()]]);
        }
        // Each map still lists what the Map listed at its time, in the Map's order (keys in the order first set).
        for (const [earlier, entries] of history) {
          expect(earlier.size).toBe(entries.length);
          expect(entriesInOrder(earlier)).toEqual(entries);
          for (const [k, v] of entries) expect(earlier.get(k)).toBe(v);
        }
      }),
    );
  });

  it('is the same map when a set changes nothing or a delete finds nothing', () => {
    const map = PersistentMap.empty<number, string>().set(7, 'seven');
    expect(map.set(7, 'seven')).toBe(map);
    expect(map.delete(8)).toBe(map);
    expect(map.has(7)).toBe(true);
    expect(map.has(8)).toBe(false);
  });

  it('keeps a key its place in the order when its value changes', () => {
    const map = PersistentMap.empty<number, string>().set(9, 'a').set(2, 'b').set(9, 'c');
    expect(entriesInOrder(map)).toEqual([
      [9, 'c'],
      [2, 'b'],
    ]);
    expect(entriesInOrder(map, (value) => value === 'b')).toEqual([[2, 'b']]);
  });
});
