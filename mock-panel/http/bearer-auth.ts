import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Whether the request carries `Authorization: Bearer <token>`. The comparison runs over fixed-length digests with
 * timingSafeEqual, so neither the token's content nor its length leaks through response timing.
 */
export function hasBearerToken(request: Request, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get('authorization') ?? '');
  const presented = match?.[1] ?? '';
  const equal = timingSafeEqual(digest(presented), digest(token));
  return equal && presented.length > 0;
}
