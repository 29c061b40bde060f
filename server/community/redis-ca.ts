import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { errorText, REDIS_CA_FILE_CONVAR } from '../kernel/index.js';

export type RedisCaResult = { ok: true; ca: Buffer } | { ok: false; error: string };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/;

/**
 * The CA certificates of BRIDGE_REDIS_CA_FILE, read once at start, for ioredis's `tls: { ca }`. The file must hold at
 * least one certificate in PEM that Node can read; anything else is one clear error.
 */
export function readRedisCa(file: string): RedisCaResult {
  const named = `${REDIS_CA_FILE_CONVAR} names ${file}`;
  let ca: Buffer;
  try {
    ca = readFileSync(file);
  } catch (error) {
    return {
      ok: false,
      error: `${named}, which cannot be read (${errorText(error)}); FXServer's Node reads only files inside a resource folder, so keep it in one and name it by its path, absolute or from the bridge's folder.`,
    };
  }
  const first = PEM_CERTIFICATE.exec(ca.toString('latin1'))?.[0];
  if (!first) {
    return {
      ok: false,
      error: `${named}, which holds no certificate in PEM (-----BEGIN CERTIFICATE-----); name the CA's certificate, or Redis's self-signed one.`,
    };
  }
  try {
    new X509Certificate(first);
  } catch (error) {
    return { ok: false, error: `${named}, whose certificate Node cannot read (${errorText(error)}).` };
  }
  return { ok: true, ca };
}
