import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

// A panel checks every request against the same token: its digest is computed once.
let lastToken: { token: string; digest: Buffer } | undefined;

function tokenDigest(token: string): Buffer {
  if (lastToken?.token !== token) lastToken = { token, digest: digest(token) };
  return lastToken.digest;
}

/**
 * Whether an `Authorization` value is `Bearer <token>`. The comparison runs over fixed-length digests with
 * timingSafeEqual, so neither the token's content nor its length leaks through response timing.
 */
export function isBearerToken(authorization: string | null, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  const presented = match?.[1] ?? '';
  const equal = timingSafeEqual(digest(presented), tokenDigest(token));
  return equal && presented.length > 0;
}

/** Whether the request carries `Authorization: Bearer <token>` (isBearerToken). */
export function hasBearerToken(request: Request, token: string): boolean {
  return isBearerToken(request.headers.get('authorization'), token);
}
