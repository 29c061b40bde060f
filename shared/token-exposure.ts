/** The convar that holds the panel token: server-only, unless an owner set it with `setr` by mistake. */
export const TOKEN_CONVAR = 'BRIDGE_LEO_API_TOKEN';

// The token-exposure check: a client that can read TOKEN_CONVAR proves it with HMAC-SHA256 keyed with what it reads,
// over a nonce the server chose (lowercase hex). The client computes it with @noble/hashes (client/token-proof.ts:
// FiveM's client runtime has no crypto), the server with node:crypto (server/edge/token-exposure-check.ts), which keeps
// 7.5 KB of hashing out of the server bundle; test/server/security/token-exposure-check.test.ts holds the two equal.
