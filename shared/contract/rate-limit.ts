import { withMeta } from '../with-meta.js';
import * as z from '../zod-mini.js';

/** The panel's budget (spec, part 8): 200 requests per fixed one-minute window per client IP. */
export const PANEL_RATE_LIMIT = { limit: 200, windowMs: 60_000 } as const;

/** Header values are decimal integers. */
const integerHeader = z.string().check(z.regex(/^[0-9]+$/));

/**
 * Headers of express-rate-limit with `standardHeaders: true` (draft 6) and `legacyHeaders: true`, the panel's
 * most likely set-up. Clients should also read the combined `RateLimit` header of drafts 7 and 8.
 */
export const RateLimitHeadersSchema = z.object({
  'RateLimit-Policy': withMeta(z.string(), {
    description: 'Draft 6/7: `<limit>;w=<window s>`; draft 8: `"<name>"; q=<limit>; w=<window s>; pk=:<key>:`.',
    example: '200;w=60',
  }),
  'RateLimit-Limit': withMeta(z.optional(integerHeader), {
    description: 'Draft 6: requests allowed per window.',
    example: '200',
  }),
  'RateLimit-Remaining': withMeta(z.optional(integerHeader), {
    description: 'Draft 6: requests left in this window.',
    example: '199',
  }),
  'RateLimit-Reset': withMeta(z.optional(integerHeader), {
    description: 'Draft 6: seconds until the window resets.',
    example: '60',
  }),
  RateLimit: withMeta(z.optional(z.string()), {
    description: 'Draft 7: `limit=200, remaining=199, reset=60`; draft 8: `"200-in-1min"; r=199; t=60`.',
  }),
  'X-RateLimit-Limit': withMeta(z.optional(integerHeader), {
    description: 'Legacy: requests allowed per window.',
    example: '200',
  }),
  'X-RateLimit-Remaining': withMeta(z.optional(integerHeader), {
    description: 'Legacy: requests left in this window.',
  }),
  'X-RateLimit-Reset': withMeta(z.optional(integerHeader), {
    description: 'Legacy: window reset as Unix epoch seconds.',
  }),
});

export const RetryAfterHeaderSchema = z.object({
  'Retry-After': withMeta(integerHeader, {
    description: 'Seconds until the window resets and requests are accepted again.',
  }),
});
