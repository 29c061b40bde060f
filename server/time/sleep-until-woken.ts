import { type Observable, take } from 'rxjs';

/**
 * Sleeps `ms`, or less when `wake$` emits first (the panel answers again, so a backoff need not be waited out).
 * Resolves with what ended the wait.
 */
export function sleepUntilWoken(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  wake$: Observable<unknown> | undefined,
): Promise<'slept' | 'woken'> {
  return new Promise((resolve) => {
    const woken = wake$?.pipe(take(1)).subscribe(() => resolve('woken'));
    void sleep(ms).then(() => {
      woken?.unsubscribe();
      resolve('slept');
    });
  });
}
