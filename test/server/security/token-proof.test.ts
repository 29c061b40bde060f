import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenProof as clientProof } from '../../../client/token-proof.js';
import { tokenProof as serverProof } from '../../../server/edge/token-exposure-check.js';

// The client proves it can read the token convar with @noble/hashes, the server checks with node:crypto: the check
// works only while both compute the same HMAC-SHA256 for every token and nonce, UTF-8 included.
describe('the token proof', () => {
  it('is HMAC-SHA256 in lowercase hex on both sides (RFC 4231 test case 2)', () => {
    const expected = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(serverProof('Jefe', 'what do ya want for nothing?')).toBe(expected);
    expect(clientProof('Jefe', 'what do ya want for nothing?')).toBe(expected);
  });

  it('is the same on the client and the server for UTF-8 and the empty token', () => {
    for (const [token, nonce] of [
      ['tökén-✓-🚓', 'nonce-ü'],
      ['', 'x'],
    ] as const) {
      expect(clientProof(token, nonce)).toBe(serverProof(token, nonce));
    }
  });

  it('is the same on the client and the server for any token and nonce of whole code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (token, nonce) => {
        expect(clientProof(token, nonce)).toBe(serverProof(token, nonce));
      }),
      { seed: 20261125, numRuns: 300 },
    );
  });
});
