import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { errorText, REDIS_CA_FILE_CONVAR, REDIS_URL_CONVAR } from '../kernel/index.js';
import type { RedisTarget } from './redis-url.js';

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
