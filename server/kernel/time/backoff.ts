export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before retry number `attempt` (from 1): the ceiling doubles from `baseMs` up to `maxMs`, and the wait
 * falls at random in its upper half ("equal jitter"), so many callers that failed together do not retry together
 * while none retries much sooner than the policy says.
 */
export function backoffMs({ baseMs, maxMs }: BackoffPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
