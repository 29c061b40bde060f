import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

// FiveM's client runtime is plain V8 without TextEncoder (noble's utf8ToBytes needs it); encodeURIComponent is
// ECMAScript and spells out exactly the UTF-8 bytes.
function utf8(text: string): Uint8Array {
  const encoded = encodeURIComponent(text);
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%') {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(encoded.charCodeAt(i));
  }
  return Uint8Array.from(bytes);
}

/**
 * Proof that a game client can read the token convar, without the token leaving that client: HMAC-SHA256 keyed with
 * what the client reads, over a nonce the server chose. Only a client that holds the real token can answer a nonce,
 * so a cheater cannot raise a false alarm, and a client that cannot read the convar has nothing to send.
 */
export function tokenProof(token: string, nonce: string): string {
  return bytesToHex(hmac(sha256, utf8(token), utf8(nonce)));
}
