import { mergeMap, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/kernel/log.js';
import { eachGuarded, guarded } from '../../../server/kernel/streams.js';

function logged() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ print: (line) => lines.push(line) }) };
}

describe('guarded handling: subscribe, log the error, go on', () => {
  it('logs a synchronous failure before the next value, names it after the value, and stays subscribed', () => {
    const { lines, logger } = logged();
    const values$ = new Subject<number>();
    const seen: string[] = [];
    eachGuarded(
      values$,
      (n) => `handling ${n}`,
      logger,
      (n) => {
        seen.push(`first ${n}`);
        if (n === 2) throw new Error('two is broken');
      },
    );
    eachGuarded(values$, 'the second handler', logger, (n) => seen.push(`second ${n}`));
    values$.next(1);
    values$.next(2);
    seen.push(`log has ${lines.length}`);
    values$.next(3);
    expect(seen).toEqual(['first 1', 'second 1', 'first 2', 'second 2', 'log has 1', 'first 3', 'second 3']);
    expect(lines).toEqual(['ERROR: handling 2 failed: Error: two is broken']);
  });

  it('awaits a promise, logs its rejection, and never makes one value wait for another', async () => {
    const { lines, logger } = logged();
    const values$ = new Subject<string>();
    const pending = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
    const done: string[] = [];
    let finished = false;
    values$
      .pipe(
        mergeMap(
          guarded('the slow work', logger, (name: string) =>
            new Promise<void>((resolve, reject) => pending.set(name, { resolve, reject })).then(() => {
              done.push(name);
            }),
          ),
        ),
      )
      .subscribe({ complete: () => (finished = true) });
    values$.next('a');
    values$.next('b');
    expect([...pending.keys()]).toEqual(['a', 'b']);
    pending.get('b')?.resolve();
    pending.get('a')?.reject(new Error('a refused'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual(['b']);
    expect(lines).toEqual(['ERROR: the slow work failed: Error: a refused']);
    values$.next('c');
    expect(pending.has('c')).toBe(true);
    values$.complete();
    expect(finished).toBe(false);
    pending.get('c')?.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(true);
  });
});
