import { createHash } from 'node:crypto';

/**
 * The community's id: 16 hex of SHA-256(BRIDGE_API_BASE as the bridge reads it). The bridge reads the address through
 * WHATWG URL (server/kernel/settings.ts): scheme and host lower-cased, a default port and trailing slashes dropped,
 * `/api/leo` taken off. So `HTTPS://Panel.example.com:443/` and `https://panel.example.com` are one community;
 * `localhost` and `127.0.0.1`, or two paths, are not (they may be two panels), and COMMUNITIES_KEY tells the owner.
 */
export function communityId(apiBase: string): string {
  return createHash('sha256').update(apiBase).digest('hex').slice(0, 16);
}

/**
 * `bridge:<community id>:`: bridges naming the same panel share keys, two panels on one Redis never meet, and nothing
 * in Redis says which panel it is (the token never goes there at all).
 */
export function communityPrefix(apiBase: string): string {
  return `bridge:${communityId(apiBase)}:`;
}

/**
 * The one key outside every community's prefix: the ids of the communities on this Redis, each with when it was last
 * seen (by Redis's clock), so that one panel named two ways does not silently make two communities.
 */
export const COMMUNITIES_KEY = 'bridge:communities';
