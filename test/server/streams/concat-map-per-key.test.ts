import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { concatMapPerKey } from '../../../server/streams/concat-map-per-key.js';

/** Work that finishes when the test says so. */
function controlledWork() {
  const log: string[] = [];
  const finishers = new Map<string, () => void>();
  const work = ({ key, name }: { key: string; name: string }) =>
    new Promise<string>((resolve) => {
      log.push(`start ${name}`);
      finishers.set(name, () => {
        log.push(`end ${name}`);
        resolve(`${key}:${name}`);
      });
    });
  const finish = async (name: string) => {
    finishers.get(name)?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { log, work, finish };
}

describe('concatMapPerKey', () => {
  it('works one value at a time per key, keys in parallel, and closes a key once it has nothing left', async () => {
    const input = new Subject<{ key: string; name: string }>();
    const lanes = { open: 0 };
    const { log, work, finish } = controlledWork();
    const out: string[] = [];
    input.pipe(concatMapPerKey((value) => value.key, work, lanes)).subscribe((value) => out.push(value));

    input.next({ key: 'a', name: 'a1' });
    input.next({ key: 'a', name: 'a2' });
    input.next({ key: 'b', name: 'b1' });
    expect(log).toEqual(['start a1', 'start b1']);
    expect(lanes.open).toBe(2);

    await finish('a1');
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    expect(lanes.open).toBe(2);

    await finish('b1');
    expect(lanes.open).toBe(1);
    await finish('a2');
    expect(lanes.open).toBe(0);

    // A key that comes back gets a new lane and is worked again.
    input.next({ key: 'a', name: 'a3' });
    expect(lanes.open).toBe(1);
    await finish('a3');
    expect(lanes.open).toBe(0);
    expect(out).toEqual(['a:a1', 'b:b1', 'a:a2', 'a:a3']);
  });

  it('holds nothing after many keys came and went', async () => {
    const input = new Subject<number>();
    const lanes = { open: 0 };
    const done: number[] = [];
    input
      .pipe(
        concatMapPerKey(
          (n) => n,
          async (n) => n,
          lanes,
        ),
      )
      .subscribe((n) => done.push(n));
    for (let n = 0; n < 1000; n++) input.next(n);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(done).toHaveLength(1000);
    expect(lanes.open).toBe(0);
  });
});
