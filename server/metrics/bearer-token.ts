import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The token of an `Authorization: Bearer <token>` header, or undefined when there is none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
 * Compares in time independent of where the tokens differ and of their lengths: both sides are hashed to the same
 * size first, since timingSafeEqual throws on buffers of different lengths.
 */
export const sameToken = (given: string, expected: string): boolean => timingSafeEqual(digest(given), digest(expected));
