// BRIDGE_REDIS_URL and BRIDGE_REDIS_CA_FILE: read strictly at start, each problem one line, and what to set when
// Redis refuses this server (a password, a certificate, TLS on one side only).
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import {
  errorText,
  maskRedisUrl,
  REDIS_CA_FILE_CONVAR,
  REDIS_URL_CONVAR,
  type RedisUrlParts,
  redisUrlParts,
} from '../kernel/index.js';
import type { CommunityOptions } from './community.js';

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

export type RedisCaResult = { ok: true; ca: Buffer } | { ok: false; error: string };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/;

/**
 * The CA certificates of BRIDGE_REDIS_CA_FILE, read once at start, for ioredis's `tls: { ca }`. The file must hold at
 * least one certificate in PEM that Node can read; anything else is one clear error.
 */
export function readRedisCa(file: string): RedisCaResult {
  const named = `${REDIS_CA_FILE_CONVAR} names ${file}`;
  let ca: Buffer;
  try {
    ca = readFileSync(file);
  } catch (error) {
    return {
      ok: false,
      error: `${named}, which cannot be read (${errorText(error)}); FXServer's Node reads only files inside a resource folder, so keep it in one and name it by its path, absolute or from the bridge's folder.`,
    };
  }
  const first = PEM_CERTIFICATE.exec(ca.toString('latin1'))?.[0];
  if (!first) {
    return {
      ok: false,
      error: `${named}, which holds no certificate in PEM (-----BEGIN CERTIFICATE-----); name the CA's certificate, or Redis's self-signed one.`,
    };
  }
  try {
    new X509Certificate(first);
  } catch (error) {
    return { ok: false, error: `${named}, whose certificate Node cannot read (${errorText(error)}).` };
  }
  return { ok: true, ca };
}

export type RedisSettings = { ok: true; target: RedisTarget; ca?: Buffer } | { ok: false; reason: string };

/** BRIDGE_REDIS_URL and BRIDGE_REDIS_CA_FILE read, each problem one line; why, when this server must run alone. */
export function redisSettings({ url, caFile, logger }: CommunityOptions): RedisSettings {
  const parsed = parseRedisUrl(url);
  const alone = (error: string, reason: string): RedisSettings => {
    logger.error(`${error} Until then this server runs alone.`);
    return { ok: false, reason };
  };
  if (!parsed.ok) return alone(parsed.error, `${REDIS_URL_CONVAR} does not read`);
  if (caFile === undefined) return { ok: true, target: parsed.target };
  if (!parsed.target.tls) {
    logger.warn(
      `${REDIS_CA_FILE_CONVAR} is set but ${REDIS_URL_CONVAR} is redis://, without TLS: the CA is not used. Write rediss:// to reach Redis over TLS.`,
    );
    return { ok: true, target: parsed.target };
  }
  const ca = readRedisCa(caFile);
  return ca.ok
    ? { ok: true, target: parsed.target, ca: ca.ca }
    : alone(ca.error, `${REDIS_CA_FILE_CONVAR} cannot serve`);
}

// Node's codes for a certificate chain that ends at no CA it trusts: a private CA, or a self-signed certificate.
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);
// How long a probe of the port may take: it is one round trip on a network the servers share.
const PROBE_MS = 1_000;

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * What to set when the error itself says what is wrong (the password, the certificate), or nothing. `withCa`: a CA
 * file was given, so an untrusted certificate is signed by another CA.
 */
export function redisFaultHint(error: unknown, target: RedisTarget, withCa: boolean): string | undefined {
  const text = errorText(error);
  const code = codeOf(error);
  if (text.startsWith('NOAUTH')) {
    return `Redis wants a password and ${REDIS_URL_CONVAR} gives none; set ${REDIS_URL_CONVAR} "${target.shape}"`;
  }
  if (text.startsWith('WRONGPASS')) {
    const user = target.userWithoutPassword
      ? '; the URL has no ":" before the password, so Redis read it as a user name'
      : '';
    return `Redis refused the user and password; set in ${REDIS_URL_CONVAR} the password Redis has (its requirepass, or the ACL user's), percent-encoded: "${target.shape}"${user}`;
  }
  if (code && UNTRUSTED.has(code)) {
    return withCa
      ? `the CA in ${REDIS_CA_FILE_CONVAR} did not sign Redis's TLS certificate; name the CA that did, or the self-signed certificate itself`
      : `this server does not trust Redis's TLS certificate; name the file of the CA that signed it, or of the self-signed certificate itself, in ${REDIS_CA_FILE_CONVAR}`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `Redis's TLS certificate does not name ${target.host}; reach Redis by a name or address its certificate holds`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return "Redis's TLS certificate is not valid now";
  return undefined;
}

/** Whether a failure may be TLS on one side only, so that a probe of the port can tell. */
export function mayBeTlsMismatch(error: unknown, target: RedisTarget): boolean {
  const code = codeOf(error);
  if (target.tls) {
    // Redis's plain port reads a TLS hello as the start of a command, and waits for its end: the connection times out.
    return code === 'ETIMEDOUT' || code === 'EPROTO' || /wrong version number|packet length/i.test(errorText(error));
  }
  // A TLS port resets a connection that starts with a command instead of a TLS hello.
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** Resolves when `socket` did what `settled` waits for, or with false after PROBE_MS; the socket is closed either way. */
function probe(socket: Socket, settled: (done: (answer: boolean) => void) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(PROBE_MS, () => done(false));
    socket.on('error', () => done(false));
    settled(done);
  });
}

/** Whether the port finishes a TLS handshake (its certificate not checked: nothing is sent on it). */
const speaksTls = (target: RedisTarget): Promise<boolean> => {
  const socket = connectTls({ host: target.host, port: target.port, rejectUnauthorized: false });
  return probe(socket, (done) => socket.once('secureConnect', () => done(true)));
};

/** Whether the port answers a PING in Redis's protocol without TLS (`+PONG`, or an error such as `-NOAUTH`). */
const speaksPlainRedis = (target: RedisTarget): Promise<boolean> => {
  const socket = connectTcp({ host: target.host, port: target.port });
  return probe(socket, (done) => {
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data: Buffer) => done(/^[+-]/.test(data.toString('latin1'))));
  });
};

/** For a failure that may be TLS on one side only: asks the port which it speaks, and says what to write. */
export async function tlsMismatchHint(target: RedisTarget): Promise<string | undefined> {
  if (target.tls) {
    return (await speaksPlainRedis(target))
      ? "that port speaks Redis without TLS; write redis://, or give the port of Redis's tls-port"
      : undefined;
  }
  return (await speaksTls(target)) ? "that port speaks TLS (Redis's tls-port); write rediss://" : undefined;
}
