import { createHmac } from 'node:crypto';

/**
 * What a client that holds the real token answers to `nonce` (client/token-proof.ts computes the same): HMAC-SHA256
 * keyed with the token's UTF-8 bytes over the nonce's, in lowercase hex.
 */
export function tokenProof(token: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(token, 'utf8')).update(nonce, 'utf8').digest('hex');
}
