// Throwaway TLS certificates for a redis-server with `--tls-port`, made by the openssl command line (node:crypto reads
// X.509 certificates but cannot make one). `.ci/run` installs openssl; on CI a missing one fails the tests.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { onCi } from './on-ci.js';

const OPENSSL = (process.env.PATH ?? '')
  .split(delimiter)
  .filter(Boolean)
  .map((dir) => join(dir, 'openssl'))
  .find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** Whether TLS tests can run here; on CI a missing openssl is an error (`.ci/run` installs it). */
export function opensslAvailable(): boolean {
  if (OPENSSL) return true;
  if (onCi)
    throw new Error(
      'openssl is not installed, and CI must run the TLS tests: .ci/run installs it (apt-get install openssl)',
    );
  return false;
}

export interface TlsFiles {
  /** The certificate a client trusts: the private CA's, or the server's own when it is self-signed. */
  caFile: string;
  certFile: string;
  keyFile: string;
  remove(): void;
}

const openssl = (dir: string, args: string[]) =>
  execFileSync(OPENSSL as string, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

// The names a client may reach the test's Redis by.
const NAMES = 'subjectAltName=IP:127.0.0.1,DNS:localhost';

/**
 * A certificate for 127.0.0.1 and localhost, valid a day: signed by a private CA made for it (`ca`), or self-signed
 * (`self-signed`: the certificate is its own CA).
 */
export function makeTlsFiles(kind: 'ca' | 'self-signed'): TlsFiles {
  if (!OPENSSL) throw new Error('openssl is not installed (apt-get install openssl)');
  const dir = mkdtempSync(join(tmpdir(), 'bridge-tls-'));
  const key = ['-newkey', 'rsa:2048', '-nodes', '-days', '1'];
  writeFileSync(join(dir, 'names.ext'), `${NAMES}\n`);
  if (kind === 'self-signed') {
    openssl(dir, [
      'req',
      '-x509',
      ...key,
      '-keyout',
      'server.key',
      '-out',
      'server.crt',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      NAMES,
    ]);
    return {
      caFile: join(dir, 'server.crt'),
      ...serverFiles(dir),
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  openssl(dir, ['req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=bridge test CA']);
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'names.ext',
  ]);
  return {
    caFile: join(dir, 'ca.crt'),
    ...serverFiles(dir),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const serverFiles = (dir: string) => ({ certFile: join(dir, 'server.crt'), keyFile: join(dir, 'server.key') });
