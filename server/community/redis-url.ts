import { maskRedisUrl, REDIS_URL_CONVAR, type RedisUrlParts, redisUrlParts } from '../kernel/index.js';

export interface RedisTarget {
  /** The URL as ioredis reads it. */
  url: string;
  /** The URL with everything between `//` and the last `@` masked, for every line that names it. */
  where: string;
  tls: boolean;
  host: string;
  port: number;
  /** The value to set, the password left out: `redis://:<password, percent-encoded>@host:6379/0`. */
  shape: string;
  /** `redis://secret@host`: a user and no password, most often a password missing its `:`. */
  userWithoutPassword: boolean;
}

export type RedisUrlResult = { ok: true; target: RedisTarget } | { ok: false; error: string };

const EXAMPLE = 'redis://:password@127.0.0.1:6379/0';
// Redis's port when the URL names none, as ioredis takes it.
const DEFAULT_PORT = 6379;
const ALONE = 'or remove it to run this server alone.';
const fix = `Set it like: set ${REDIS_URL_CONVAR} "${EXAMPLE}" (rediss:// for TLS; the password percent-encoded), ${ALONE}`;
// What a password may not hold as it is in a URL: `/`, `?` and `#` end the credentials early, a `%` starts an escape.
const NEEDS_ENCODING = /[/?#\s]|%(?![0-9a-f]{2})/i;
const ENCODINGS = '/ as %2F, ? as %3F, # as %23, @ as %40, : as %3A, % as %25, a space as %20';

/**
 * The value to set, its password left out: `redis://:<password, percent-encoded>@host:6379/0`, with `<user>:` when
 * one is named. Built from the parts the owner wrote, so the host and database are theirs.
 */
function shapeOf({ before, credentials, after }: Pick<RedisUrlParts, 'before' | 'credentials' | 'after'>): string {
  const scheme = /^rediss/i.test(before) ? 'rediss://' : 'redis://';
  const user = /^[^:]+:/.test(credentials) ? '<user>:' : ':';
  // A query is no part of what to set (none is read), and may hold a password.
  return `${scheme}${user}<password, percent-encoded>@${after.replace(/[?#].*$/s, '')}`;
}

const percentEncode = (shape: string) =>
  `Percent-encode the password (${ENCODINGS}): set ${REDIS_URL_CONVAR} "${shape}", ${ALONE}`;

/**
 * BRIDGE_REDIS_URL read strictly, so a typo is one clear line at start rather than a client retrying a host that
 * does not exist: `redis://[user:password@]host:port/db`, or `rediss://` for TLS. No line holds the password.
 */
export function parseRedisUrl(raw: string): RedisUrlResult {
  const value = raw.trim();
  const masked = maskRedisUrl(value);
  const parts = redisUrlParts(value);
  if (parts && !/^[a-z][a-z0-9+.-]*:\/\/$/i.test(parts.before)) {
    return {
      ok: false,
      error: `${REDIS_URL_CONVAR} "${masked}" is not a URL: it must start with redis:// or rediss://. ${percentEncode(shapeOf(parts))}`,
    };
  }
  if (parts && NEEDS_ENCODING.test(parts.credentials)) {
    return {
      ok: false,
      error: `${REDIS_URL_CONVAR} "${masked}" does not read: its password holds /, ?, #, a space or a % that starts no escape. ${percentEncode(shapeOf(parts))}`,
    };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, error: `${REDIS_URL_CONVAR} "${masked}" is not a URL. ${fix}` };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    return {
      ok: false,
      error: `${REDIS_URL_CONVAR} must start with redis:// or rediss://, not ${url.protocol}//. ${fix}`,
    };
  }
  if (url.hostname === '') return { ok: false, error: `${REDIS_URL_CONVAR} "${masked}" names no host. ${fix}` };
  if (url.search || url.hash) {
    return { ok: false, error: `${REDIS_URL_CONVAR} "${masked}" must not hold a query or a fragment. ${fix}` };
  }
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,5}$/.test(db)) {
    return {
      ok: false,
      error: `${REDIS_URL_CONVAR} "${masked}": the path must be a database number, not /${db}. ${fix}`,
    };
  }
  const tls = url.protocol === 'rediss:';
  return {
    ok: true,
    target: {
      url: value,
      where: masked,
      tls,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? DEFAULT_PORT : Number(url.port),
      shape: shapeOf(parts ?? { before: `${url.protocol}//`, credentials: '', after: `${url.host}${url.pathname}` }),
      userWithoutPassword: url.username !== '' && url.password === '',
    },
  };
}
