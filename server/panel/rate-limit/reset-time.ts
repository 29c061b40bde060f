import { nonNegativeNumber } from './non-negative-number.js';

// ky's rule: a reset number is a timestamp only when it is clearly one, i.e. after 2024-01-01. A delta of that
// many seconds would be 54 years, so nothing real is mistaken either way; a fixed threshold also keeps working
// when the two clocks disagree.
const TIMESTAMP_THRESHOLD_MS = Date.UTC(2024, 0, 1);

/**
 * Milliseconds until a window resets, from a reset header's number: delta seconds (`RateLimit-Reset: 60`), epoch
 * seconds (`X-RateLimit-Reset: 1735689600`, express-rate-limit's legacy header) or epoch milliseconds. A timestamp
 * is compared with the panel's own `Date` header when there is one, so a skewed local clock does not matter.
 * Negative when the reset lies in the past.
 */
export function resetDelayMs(value: string | null, panelNowMs: number): number | undefined {
  const number = nonNegativeNumber(value);
  if (number === undefined) return undefined;
  if (number >= TIMESTAMP_THRESHOLD_MS) return number - panelNowMs; // epoch milliseconds
  if (number * 1000 >= TIMESTAMP_THRESHOLD_MS) return number * 1000 - panelNowMs; // epoch seconds
  return number * 1000;
}

/** `Retry-After`: delta seconds or an HTTP date (strict: a date must parse to a time, or the header is ignored). */
export function retryAfterMs(value: string | null, panelNowMs: number): number | undefined {
  if (value === null) return undefined;
  const seconds = nonNegativeNumber(value);
  if (seconds !== undefined) return seconds * 1000;
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - panelNowMs);
}

/** The panel's clock from its `Date` header (one-second resolution), or the local wall clock without one. */
export function panelNow(dateHeader: string | null, localWallNowMs: number): number {
  if (dateHeader === null) return localWallNowMs;
  const date = Date.parse(dateHeader);
  return Number.isNaN(date) ? localWallNowMs : date;
}
