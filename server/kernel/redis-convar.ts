// Read by dist/server.js (the password is a secret of the log from the first line) and by dist/redis.cjs: keep this
// file free of imports so it costs dist/server.js a few bytes.

/** The convar naming the community's Redis; unset, the bridge runs alone as it always did. */
export const REDIS_URL_CONVAR = 'BRIDGE_REDIS_URL';
/** The convar naming a PEM file of the CA (or the self-signed certificate) that `rediss://` trusts besides Node's own. */
export const REDIS_CA_FILE_CONVAR = 'BRIDGE_REDIS_CA_FILE';

/**
 * `scheme//user:password@host…` cut where a Redis client cuts it: the credentials are everything between the first
 * `//` and the last `@`, whatever they hold (an unencoded `/`, `@` or `#`, a missing `:` after the scheme).
 */
const CREDENTIALS = /^(.*?\/\/)(.*)@([^@]*)$/s;
// A query or a fragment may carry a password too (`?password=`): it is masked with the credentials.
const QUERY = /[?#].*$/s;
const MASK = '***';

export interface RedisUrlParts {
  /** Up to and with the first `//`: `redis://`, or `redis//` when the colon is missing. */
  before: string;
  /** Between the first `//` and the last `@`: `user:password`, `:password`, or a password typed as the user. */
  credentials: string;
  /** After the last `@`: `host:port/db`. */
  after: string;
}

/** The value cut at its first `//` and its last `@`, or nothing when it has no `@` after a `//`. */
export function redisUrlParts(raw: string): RedisUrlParts | undefined {
  const match = CREDENTIALS.exec(raw.trim());
  return match ? { before: match[1] as string, credentials: match[2] as string, after: match[3] as string } : undefined;
}

const readsAsUrl = (text: string): boolean => {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
};

const withoutQuery = (text: string): string => text.replace(QUERY, (query) => `${query[0]}${MASK}`);

/**
 * BRIDGE_REDIS_URL as every line shows it: everything between `//` and the last `@` masked, and any query; the whole
 * value when it is no URL at all (nothing then says where a password would stand), or when an `@` stands without a
 * `//` before it.
 */
export function maskRedisUrl(raw: string): string {
  const value = raw.trim();
  const parts = redisUrlParts(value);
  if (parts) return `${parts.before}${MASK}@${withoutQuery(parts.after)}`;
  if (value.includes('@') || !readsAsUrl(value)) return MASK;
  return withoutQuery(value);
}

/**
 * What of BRIDGE_REDIS_URL the log masks wherever it appears whole: the value as set, its credentials with the `//`
 * and `@` around them, and its query. Never the password alone: the bridge prints the URL only masked
 * (maskRedisUrl), and a password that is an ordinary word (`redis`, `community`) would be masked in every line.
 */
export function redisSecretsOf(raw: string): string[] {
  const value = raw.trim();
  // Unset, or a URL without credentials or query: nothing to hide, and it is shown as it is.
  if (value === '' || maskRedisUrl(value) === value) return [];
  const parts = redisUrlParts(value);
  const query = QUERY.exec(value)?.[0];
  return [value, ...(parts ? [`//${parts.credentials}@`] : []), ...(query && query.length > 1 ? [query] : [])];
}
