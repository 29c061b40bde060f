import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenProof as clientProof, tokenProof } from '../../../client/token-proof.js';
import { tokenProof as serverProof, TokenExposureCheck } from '../../../server/edge/token-exposure-check.js';
import { createLogger } from '../../../server/kernel/log.js';
import { TOKEN_CONVAR } from '../../../shared/token-exposure.js';

const TOKEN = 'a-panel-token-of-some-length-9';

function check(token = TOKEN) {
  const lines: string[] = [];
  const challenges: Array<{ src: number; nonce: string }> = [];
  const tokenCheck = new TokenExposureCheck({
    token,
    logger: createLogger({ print: (line) => lines.push(line) }),
    challenge: (src, nonce) => challenges.push({ src, nonce }),
  });
  const nonceOf = (src: number) => challenges.filter((c) => c.src === src).at(-1)?.nonce ?? '';
  return { tokenCheck, lines, challenges, nonceOf };
}

describe('the token exposure check', () => {
  it('raises one ERROR naming the convar when a client proves it can read the token, and asks no one after', () => {
    const { tokenCheck, lines, challenges, nonceOf } = check();
    tokenCheck.challenge(1);
    tokenCheck.challenge(2);
    tokenCheck.answer(1, [nonceOf(1), tokenProof(TOKEN, nonceOf(1))]);
    tokenCheck.answer(2, [nonceOf(2), tokenProof(TOKEN, nonceOf(2))]);
    tokenCheck.challenge(3);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`ERROR: ${TOKEN_CONVAR} is replicated to clients.*\`set\`, not \`setr\``));
    expect(lines[0]).not.toContain(TOKEN);
    expect(challenges.map((c) => c.src)).toEqual([1, 2]);
    expect(new Set(challenges.map((c) => c.nonce)).size).toBe(2);
  });

  it.each([
    ['a wrong proof', (nonce: string) => [nonce, tokenProof('not the token', nonce)]],
    ['the token itself', (nonce: string) => [nonce, TOKEN]],
    ['another nonce', () => ['0'.repeat(32), tokenProof(TOKEN, '0'.repeat(32))]],
    ['a proof of another type', (nonce: string) => [nonce, 42]],
    ['nothing', () => []],
    ['an uppercase proof', (nonce: string) => [nonce, tokenProof(TOKEN, nonce).toUpperCase()]],
  ] as const)('ignores %s', (_name, answer) => {
    const { tokenCheck, lines, nonceOf } = check();
    tokenCheck.challenge(1);
    tokenCheck.answer(1, answer(nonceOf(1)));
    expect(lines).toEqual([]);
  });

  it('counts a nonce once: a replay, an unasked answer or an answer after the drop is ignored', () => {
    const { tokenCheck, lines, nonceOf } = check();
    tokenCheck.answer(1, ['whatever', tokenProof(TOKEN, 'whatever')]);
    tokenCheck.challenge(1);
    const nonce = nonceOf(1);
    tokenCheck.answer(1, [nonce, 'f'.repeat(64)]);
    tokenCheck.answer(1, [nonce, tokenProof(TOKEN, nonce)]);
    tokenCheck.challenge(2);
    tokenCheck.forget(2);
    tokenCheck.answer(2, [nonceOf(2), tokenProof(TOKEN, nonceOf(2))]);
    // Another player's nonce does not count for this one.
    tokenCheck.challenge(3);
    tokenCheck.challenge(4);
    tokenCheck.answer(4, [nonceOf(3), tokenProof(TOKEN, nonceOf(3))]);
    expect(lines).toEqual([]);
  });

  it('asks nobody without a token', () => {
    const { tokenCheck, challenges } = check('');
    tokenCheck.challenge(1);
    expect(challenges).toEqual([]);
  });
});

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
