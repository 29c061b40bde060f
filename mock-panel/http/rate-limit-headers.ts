import { createHash } from 'node:crypto';
import type { RateLimitInfo } from '../store/rate-limiter';

/** express-rate-limit's `standardHeaders` values (`true` there means `draft-6`). */
export type StandardHeadersDraft = 'draft-6' | 'draft-7' | 'draft-8';

export interface RateLimitHeaderStyle {
  /** Default `draft-6`: `RateLimit-Policy`, `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`. */
  standardHeaders: StandardHeadersDraft | false;
  /** Default true: `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (epoch seconds) and `Date`. */
  legacyHeaders: boolean;
}

export const DEFAULT_RATE_LIMIT_HEADER_STYLE: RateLimitHeaderStyle = {
  standardHeaders: 'draft-6',
  legacyHeaders: true,
};

// The formats below follow express-rate-limit's source/headers.ts, header for header.

function resetSeconds(info: RateLimitInfo, nowMs: number): number {
  return Math.max(0, Math.ceil((info.resetTimeMs - nowMs) / 1000));
}

/** express-rate-limit's default draft-8 policy name, e.g. `200-in-1min`. */
export function policyName(limit: number, windowMs: number): string {
  const seconds = windowMs / 1000;
  const minutes = seconds / 60;
  const hours = minutes / 60;
  const days = hours / 24;
  if (seconds < 60) return `${limit}-in-${seconds}sec`;
  if (minutes < 60) return `${limit}-in-${minutes}min`;
  if (hours < 24) return `${limit}-in-${hours}hr${hours > 1 ? 's' : ''}`;
  return `${limit}-in-${days}day${days > 1 ? 's' : ''}`;
}

/** Draft 8's partition key: the first 12 hex digits of the key's SHA-256, base64-encoded. */
function partitionKey(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex').slice(0, 12);
  return Buffer.from(hex).toString('base64');
}

/** The headers every `/api/leo` answer carries for this client's window. */
export function rateLimitHeaders(
  info: RateLimitInfo,
  windowMs: number,
  style: RateLimitHeaderStyle,
  nowMs: number,
): [string, string][] {
  const headers: [string, string][] = [];
  const windowSeconds = Math.ceil(windowMs / 1000);
  const reset = resetSeconds(info, nowMs);
  if (style.legacyHeaders) {
    headers.push(
      ['X-RateLimit-Limit', String(info.limit)],
      ['X-RateLimit-Remaining', String(info.remaining)],
      // express-rate-limit adds the server's Date so a client can compare the epoch reset with the server clock.
      ['Date', new Date(nowMs).toUTCString()],
      ['X-RateLimit-Reset', String(Math.ceil(info.resetTimeMs / 1000))],
    );
  }
  switch (style.standardHeaders) {
    case 'draft-6':
      headers.push(
        ['RateLimit-Policy', `${info.limit};w=${windowSeconds}`],
        ['RateLimit-Limit', String(info.limit)],
        ['RateLimit-Remaining', String(info.remaining)],
      );
      if (reset > 0) headers.push(['RateLimit-Reset', String(reset)]);
      break;
    case 'draft-7':
      headers.push(
        ['RateLimit-Policy', `${info.limit};w=${windowSeconds}`],
        ['RateLimit', `limit=${info.limit}, remaining=${info.remaining}, reset=${reset}`],
      );
      break;
    case 'draft-8': {
      const name = policyName(info.limit, windowMs);
      headers.push(
        ['RateLimit-Policy', `"${name}"; q=${info.limit}; w=${windowSeconds}; pk=:${partitionKey(info.key)}:`],
        ['RateLimit', `"${name}"; r=${info.remaining}; t=${reset}`],
      );
      break;
    }
    case false:
      break;
  }
  return headers;
}

/** Sent with the 429 when any rate-limit header is on, as express-rate-limit does. */
export function retryAfterHeader(info: RateLimitInfo, nowMs: number): [string, string] {
  return ['Retry-After', String(resetSeconds(info, nowMs))];
}
