import { REDIS_URL_CONVAR } from './redis-convar.js';

export interface RedisTarget {
  /** The URL as ioredis reads it. */
  url: string;
  /** The URL with its password masked, for every line that names it. */
  where: string;
  tls: boolean;
}

export type RedisUrlResult = { ok: true; target: RedisTarget } | { ok: false; error: string };

const EXAMPLE = 'redis://:password@127.0.0.1:6379/0';
const fix = `Set it like: set ${REDIS_URL_CONVAR} "${EXAMPLE}" (rediss:// for TLS), or remove it to run this server alone.`;

/**
 * BRIDGE_REDIS_URL read strictly, so a typo is one clear line at start rather than a client retrying a host that
 * does not exist: `redis://[user:password@]host:port/db`, or `rediss://` for TLS.
 */
export function parseRedisUrl(raw: string): RedisUrlResult {
  const masked = maskRedisPassword(raw);
  let url: URL;
  try {
    url = new URL(raw);
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
  return { ok: true, target: { url: raw, where: masked, tls: url.protocol === 'rediss:' } };
}

/** The URL with whatever stands between `user:` and `@` masked; works on text that is not a valid URL too. */
export function maskRedisPassword(raw: string): string {
  return raw.trim().replace(/^([a-z]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
}
