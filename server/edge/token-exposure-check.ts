import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_CONVAR } from '../../shared/token-exposure.js';
import type { Logger } from '../kernel/index.js';

export interface TokenExposureCheckOptions {
  token: string;
  logger: Logger;
  /** Sends the nonce to that player's client. */
  challenge: (src: number, nonce: string) => void;
}

const PROOF = /^[0-9a-f]{64}$/;

/**
 * Finds out whether the token convar is replicated to clients (`setr`): FiveM gives a server script no way to read
 * a convar's flags, so each client that becomes ready is asked to prove, with tokenProof, that it can read the
 * token. Nothing secret travels: the nonce is random and the answer is an HMAC only the token's holder can compute.
 */
export class TokenExposureCheck {
  private readonly nonces = new Map<number, string>();
  private exposed = false;

  constructor(private readonly options: TokenExposureCheckOptions) {}

  /** Asks a client that just became ready; stops asking once one client has shown the token is exposed. */
  challenge(src: number): void {
    if (this.exposed || this.options.token === '' || this.nonces.has(src)) return;
    const nonce = randomBytes(16).toString('hex');
    this.nonces.set(src, nonce);
    this.options.challenge(src, nonce);
  }

  /** A client's answer. Each nonce counts once; anything unasked for or malformed is ignored. */
  answer(src: number, args: readonly unknown[]): void {
    const nonce = this.nonces.get(src);
    if (nonce === undefined) return;
    this.nonces.delete(src);
    const [answeredNonce, proof] = args;
    if (answeredNonce !== nonce || typeof proof !== 'string' || !PROOF.test(proof)) return;
    const expected = Buffer.from(tokenProof(this.options.token, nonce));
    if (!timingSafeEqual(Buffer.from(proof), expected) || this.exposed) return;
    this.exposed = true;
    this.options.logger.error(
      `${TOKEN_CONVAR} is replicated to clients: the game of player ${src} can read the panel token. ` +
        `Set it with \`set\`, not \`setr\` (or SetConvarReplicated), restart the server (a convar stays replicated ` +
        'until then), and change LEO_API_TOKEN in the panel, because players may have kept the old one.',
    );
  }

  forget(src: number): void {
    this.nonces.delete(src);
  }

  /** Challenges waiting for an answer. */
  get size(): number {
    return this.nonces.size;
  }
}

/**
 * What a client that holds the real token answers to `nonce` (client/token-proof.ts computes the same): HMAC-SHA256
 * keyed with the token's UTF-8 bytes over the nonce's, in lowercase hex.
 */
export function tokenProof(token: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(token, 'utf8')).update(nonce, 'utf8').digest('hex');
}
