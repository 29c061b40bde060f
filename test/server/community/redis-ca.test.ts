// BRIDGE_REDIS_CA_FILE: the CA `rediss://` trusts besides Node's own. A file that cannot serve is one clear ERROR.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRedisCa } from '../../../server/community/redis-settings.js';
import { makeTlsFiles, opensslAvailable } from '../../support/tls-certificates.js';

describe('BRIDGE_REDIS_CA_FILE', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-ca-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a file that is not there: the ERROR names the convar, the path and where FXServer lets a script read', () => {
    const file = join(dir, 'missing.pem');
    expect(readRedisCa(file)).toEqual({
      ok: false,
      error: `BRIDGE_REDIS_CA_FILE names ${file}, which cannot be read (ENOENT: no such file or directory, open '${file}'); FXServer's Node reads only files inside a resource folder, so keep it in one and name it by its path, absolute or from the bridge's folder.`,
    });
  });

  it('a folder, not a file: the ERROR says it cannot be read', () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    expect(readRedisCa(folder)).toMatchObject({ ok: false, error: expect.stringContaining('cannot be read (EISDIR') });
  });

  it('a file without a PEM certificate (a key, or DER bytes): the ERROR says what it must hold', () => {
    const file = join(dir, 'key.pem');
    writeFileSync(file, '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n');
    expect(readRedisCa(file)).toEqual({
      ok: false,
      error: `BRIDGE_REDIS_CA_FILE names ${file}, which holds no certificate in PEM (-----BEGIN CERTIFICATE-----); name the CA's certificate, or Redis's self-signed one.`,
    });
  });

  it('a certificate cut short or damaged: the ERROR says Node cannot read it', () => {
    const file = join(dir, 'damaged.pem');
    writeFileSync(file, '-----BEGIN CERTIFICATE-----\nMIIBnotacertificate\n-----END CERTIFICATE-----\n');
    expect(readRedisCa(file)).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^BRIDGE_REDIS_CA_FILE names .*damaged\.pem, whose certificate Node cannot read \(.+\)/,
      ),
    });
  });

  it.skipIf(!opensslAvailable())("a CA's certificate in PEM: its bytes, for ioredis's tls.ca", () => {
    const files = makeTlsFiles('ca');
    try {
      expect(readRedisCa(files.caFile)).toEqual({ ok: true, ca: readFileSync(files.caFile) });
    } finally {
      files.remove();
    }
  });
});
