import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyUpdate,
  type DutyChange,
  type DutyModel,
  type DutyState,
  EMPTY_DUTY_MODEL,
  entriesInOrder,
  OFF_DUTY,
  PersistentMap,
} from '../../../server/duty/duty-model.js';

const state = (departmentId: number): DutyState => ({
  onDuty: true,
  departmentId,
  departmentSlug: `dept${departmentId}`,
  departmentName: `Department ${departmentId}`,
  rankId: 1,
  since: 0,
});

describe('the duty model', () => {
  it('lists the sessions on duty as its sessions do, in their order, after any run of transitions and forgets', () => {
    const step = fc.record({ src: fc.integer({ min: 1, max: 40 }), to: fc.integer({ min: -1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        let model: DutyModel = EMPTY_DUTY_MODEL;
        for (const { src, to } of steps) {
          if (to < 0) {
            model = applyUpdate(model, { kind: 'forget', src });
            continue;
          }
          const previous = model.sessions.get(src) ?? OFF_DUTY;
          const next = to === 0 ? OFF_DUTY : state(to);
          const change = { kind: 'on', src, chatId: undefined, previous, next } as unknown as DutyChange;
          const before = model.onDuty;
          model = applyUpdate(model, { kind: 'transition', change });
          // Unchanged when nobody on duty changed: the exports keep what they built from it.
          if (!previous.onDuty && !next.onDuty) expect(model.onDuty).toBe(before);
        }
        expect(model.onDuty).toEqual(entriesInOrder(model.sessions, (session) => session.onDuty));
      }),
    );
  });
});

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
