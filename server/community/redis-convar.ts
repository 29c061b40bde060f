// Read by dist/server.js (the password is a secret of the log from the first line) and by dist/redis.cjs: keep this
// file free of imports so it costs dist/server.js a few bytes.

/** The convar naming the community's Redis; unset, the bridge runs alone as it always did. */
export const REDIS_URL_CONVAR = 'BRIDGE_REDIS_URL';

/**
 * The password of a `redis://user:password@host` URL as written and percent-decoded (a line may show either), or
 * nothing; text that is not a valid URL still gives up its password.
 */
export function redisSecretsOf(raw: string): string[] {
  const written = /^[a-z]+:\/\/[^:@/]*:([^@/]*)@/i.exec(raw.trim())?.[1];
  if (!written) return [];
  let decoded = written;
  try {
    decoded = decodeURIComponent(written);
  } catch {
    // A stray `%`: the password is what was written.
  }
  return decoded === written ? [written] : [written, decoded];
}
