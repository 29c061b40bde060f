import { concat, config, defer, from, NEVER, Observable, of, Subject, take, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { concatMapPerKey } from '../../../server/kernel/streams.js';

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

  it('fails with a work that fails or throws, and stops every lane', () => {
    for (const failing of [
      () => throwError(() => new Error('boom')),
      () => {
        throw new Error('boom');
      },
    ]) {
      const input = new Subject<string>();
      const lanes = { open: 0 };
      let torn = 0;
      const errors: unknown[] = [];
      input
        .pipe(
          concatMapPerKey(
            (key) => key,
            (key) => (key === 'bad' ? failing() : new Observable<string>(() => () => (torn += 1))),
            lanes,
          ),
        )
        .subscribe({ error: (error) => errors.push(error) });
      input.next('a');
      input.next('bad');
      expect(errors.map(String)).toEqual(['Error: boom']);
      expect(torn).toBe(1);
      expect(lanes.open).toBe(0);
      expect(input.observed).toBe(false);
    }
  });

  it('completes once the source has and every lane is empty', async () => {
    const input = new Subject<{ key: string; name: string }>();
    const { work, finish } = controlledWork();
    let completed = false;
    input.pipe(concatMapPerKey((value) => value.key, work)).subscribe({ complete: () => (completed = true) });
    input.next({ key: 'a', name: 'a1' });
    input.next({ key: 'a', name: 'a2' });
    input.complete();
    expect(completed).toBe(false);
    await finish('a1');
    expect(completed).toBe(false);
    await finish('a2');
    expect(completed).toBe(true);
  });

  it('unsubscribing stops the works running and closes every lane', () => {
    const input = new Subject<string>();
    const lanes = { open: 0 };
    let torn = 0;
    const subscription = input
      .pipe(
        concatMapPerKey(
          (key) => key,
          () => new Observable<never>(() => () => (torn += 1)),
          lanes,
        ),
      )
      .subscribe();
    input.next('a');
    input.next('a');
    input.next('b');
    expect(lanes.open).toBe(2);
    subscription.unsubscribe();
    expect(torn).toBe(2);
    expect(lanes.open).toBe(0);
    expect(input.observed).toBe(false);
  });

  it('queues a value its own lane sends while it is worked, and runs long synchronous lanes without recursion', () => {
    const input = new Subject<number>();
    const lanes = { open: 0 };
    const seen: number[] = [];
    input
      .pipe(
        concatMapPerKey(
          () => 'one key',
          (n) => of(n),
          lanes,
        ),
      )
      .subscribe((n) => {
        seen.push(n);
        // The first value's answer sends 20,000 more of the same key, each while the lane is busy.
        if (n === 0) for (let next = 1; next <= 20_000; next++) input.next(next);
      });
    input.next(0);
    expect(seen).toHaveLength(20_001);
    expect(seen.slice(0, 3)).toEqual([0, 1, 2]);
    expect(seen.at(-1)).toBe(20_000);
    expect(lanes.open).toBe(0);
  });

  it('keeps a lane open while its work never ends, without holding other keys', () => {
    const input = new Subject<string>();
    const lanes = { open: 0 };
    const out: string[] = [];
    input
      .pipe(
        concatMapPerKey(
          (key) => key,
          (key) => (key === 'stuck' ? NEVER : of(key)),
          lanes,
        ),
      )
      .subscribe((key) => out.push(key));
    input.next('stuck');
    input.next('a');
    input.next('stuck');
    input.next('b');
    expect(out).toEqual(['a', 'b']);
    expect(lanes.open).toBe(1);
  });

  describe('a failure or a closed output stops every lane at once', () => {
    afterEach(() => {
      config.onUnhandledError = null;
    });

    it('an output unsubscribed from inside next (take(1)) ends the work being subscribed and its lane', () => {
      const input = new Subject<{ key: string; n: number }>();
      const lanes = { open: 0 };
      const worked: number[] = [];
      let finish = () => {};
      let torn = 0;
      const pending = new Observable<never>((subscriber) => {
        finish = () => subscriber.complete();
        return () => (torn += 1);
      });
      input
        .pipe(
          concatMapPerKey(
            (value) => value.key,
            (value) =>
              defer(() => {
                worked.push(value.n);
                // Queued behind this work in the same lane, while it is being subscribed.
                if (value.n === 1) input.next({ key: 'a', n: 2 });
                return concat(of(value.n), pending);
              }),
            lanes,
          ),
          take(1),
        )
        .subscribe();
      input.next({ key: 'a', n: 1 });
      expect(torn).toBe(1);
      finish();
      expect(worked).toEqual([1]);
      expect(lanes.open).toBe(0);
    });

    it('a synchronous source goes on after a work failed: nothing more is worked', () => {
      const worked: string[] = [];
      const errors: unknown[] = [];
      from(['a', 'b', 'c'])
        .pipe(
          concatMapPerKey(
            (value) => value,
            (value) => {
              worked.push(value);
              if (value === 'a') throw new Error('boom');
              return of(value);
            },
          ),
        )
        .subscribe({ error: (error) => errors.push(error) });
      expect(errors.map(String)).toEqual(['Error: boom']);
      expect(worked).toEqual(['a']);
    });

    it('a key function that throws fails the output, not the process', () => {
      const unhandled: unknown[] = [];
      config.onUnhandledError = (error) => unhandled.push(error);
      const errors: unknown[] = [];
      const input = new Subject<string>();
      input
        .pipe(
          concatMapPerKey(
            (value) => {
              if (value === 'x') throw new Error('bad key');
              return value;
            },
            (value) => of(value),
          ),
        )
        .subscribe({ error: (error) => errors.push(error) });
      input.next('x');
      expect(errors.map(String)).toEqual(['Error: bad key']);
      expect(unhandled).toEqual([]);
    });

    it('a work that answers with nothing to subscribe to fails the output and leaves no lane open', () => {
      const unhandled: unknown[] = [];
      config.onUnhandledError = (error) => unhandled.push(error);
      const lanes = { open: 0 };
      const errors: unknown[] = [];
      const input = new Subject<string>();
      input
        .pipe(
          concatMapPerKey(
            (value) => value,
            () => undefined as never,
            lanes,
          ),
        )
        .subscribe({ error: (error) => errors.push(error) });
      input.next('x');
      expect(errors).toHaveLength(1);
      expect(lanes.open).toBe(0);
      expect(unhandled).toEqual([]);
    });
  });
});
