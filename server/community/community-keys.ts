import { createHash } from 'node:crypto';

/**
 * `bridge:<16 hex of SHA-256(BRIDGE_API_BASE)>:`: bridges naming the same panel share keys, two panels on one Redis
 * never meet, and nothing in Redis says which panel it is (the token never goes there at all).
 */
export function communityPrefix(apiBase: string): string {
  return `bridge:${createHash('sha256').update(apiBase).digest('hex').slice(0, 16)}:`;
}
