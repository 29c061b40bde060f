import { createHash, timingSafeEqual } from 'node:crypto';
import { BEARER_REALM } from '../../shared/contract/http-headers';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

// A panel checks every request against the same token: its digest is computed once.
let lastToken: { token: string; digest: Buffer } | undefined;

function tokenDigest(token: string): Buffer {
  if (lastToken?.token !== token) lastToken = { token, digest: digest(token) };
  return lastToken.digest;
}

// Clients present the same header request after request: its digest is kept for the next one. A hit only says that
// the previous request presented the same value, which tells a sender less than presenting that value does.
let lastPresented: { presented: string; digest: Buffer } | undefined;

function presentedDigest(presented: string): Buffer {
  if (lastPresented?.presented !== presented) lastPresented = { presented, digest: digest(presented) };
  return lastPresented.digest;
}

/**
 * Whether an `Authorization` value is `Bearer <token>`. The comparison runs over fixed-length digests with
 * timingSafeEqual, so neither the token's content nor its length leaks through response timing.
 */
export function isBearerToken(authorization: string | null, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  const presented = match?.[1] ?? '';
  const equal = timingSafeEqual(presentedDigest(presented), tokenDigest(token));
  return equal && presented.length > 0;
}

/** Whether the request carries `Authorization: Bearer <token>` (isBearerToken). */
export function hasBearerToken(request: Request, token: string): boolean {
  return isBearerToken(request.headers.get('authorization'), token);
}

const BEARER_SCHEME = /^Bearer(?:[ \t]|$)/i;

/** Whether an `Authorization` value presents a bearer token at all (right or wrong). */
export function presentsBearer(authorization: string | null): boolean {
  return BEARER_SCHEME.test(authorization ?? '');
}

/**
 * The `WWW-Authenticate` value of a 401 (RFC 6750, section 3) for the protection space `realm`: a request that
 * presented no bearer token gets the bare challenge, one that presented a token it does not hold is told the token is
 * invalid.
 */
export function bearerChallenge(authorization: string | null, realm: string = BEARER_REALM): string {
  const challenge = `Bearer realm="${realm}"`;
  return presentsBearer(authorization) ? `${challenge}, error="invalid_token"` : challenge;
}
