import { withMeta } from '../with-meta.js';
import * as z from '../zod-mini.js';

// The bearer challenge every HTTP client reads on a 401 (RFC 6750). The bridge does not read it, so it stays out of
// index.ts and the bridge bundle. (405's `Allow` is not documented per operation: no documented call gets a 405.)

/** The realm of the panel's bearer challenge. */
export const BEARER_REALM = 'api/leo';

export const ChallengeHeaderSchema = z.object({
  'WWW-Authenticate': withMeta(z.string(), {
    description:
      `The bearer challenge (RFC 6750): \`Bearer realm="${BEARER_REALM}"\` when no bearer token was sent, with ` +
      '`error="invalid_token"` when the token sent is not the panel\'s.',
    example: `Bearer realm="${BEARER_REALM}", error="invalid_token"`,
  }),
});
