import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`; false when the signal aborted first (the client went away). */
export async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the signal aborts. Holds no timer, so a forgotten hang never keeps a process alive. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
