import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { manifestFiles, zip } from '../../scripts/package.js';
import type { DutyOutcome } from '../../shared/events.js';
import { bridgeOf } from '../e2e/support/bridge-exports.js';
import { REPO_ROOT, startWorld, type World } from '../e2e/support/world.js';
import { LSPD, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { readZip } from './support/read-zip.js';

const EXPECTED_FILES = [
  'LICENSE',
  'README.md',
  'config.lua',
  'dist/client.js',
  'dist/client.js.map',
  'dist/integrations.cjs',
  'dist/integrations.cjs.map',
  'dist/metrics.cjs',
  'dist/metrics.cjs.map',
  'dist/redis.cjs',
  'dist/redis.cjs.map',
  'dist/server.js',
  'dist/server.js.map',
  'docs/budget.md',
  'docs/integrations.md',
  'docs/locale-and-notifications.md',
  'docs/prometheus/bridge-alerts.test.yml',
  'docs/prometheus/bridge-alerts.yml',
  'docs/reliability.md',
  'fxmanifest.lua',
  'types/README.md',
  'types/client.d.ts',
  'types/index.d.ts',
  'types/lua/client.lua',
  'types/lua/server.lua',
  'types/lua/shared.lua',
  'types/server.d.ts',
  'types/state-bag.d.ts',
];
// The repository's README.md is for contributors; the package's is the server owner's.
const SOURCE_OF: Record<string, string> = { 'README.md': 'PACKAGE-README.md' };

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();

describe('npm run package', () => {
  let outDir: string;
  let printed: string;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'bridge-package-'));
    // dist/ was built for this test run (test/global-setup.ts); rebuilding here would race the other test files.
    printed = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/package.ts', '--out', outDir, '--no-build'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('writes a bridge folder with exactly the manifest, the scripts it loads, the owner README and docs, the licence and the types', () => {
    expect(filesUnder(join(outDir, 'bridge'))).toEqual(EXPECTED_FILES);
    for (const file of EXPECTED_FILES) {
      const source = join(REPO_ROOT, SOURCE_OF[file] ?? file);
      expect(readFileSync(join(outDir, 'bridge', file)).equals(readFileSync(source)), file).toBe(true);
    }
    expect(printed).toContain(`packaged ${EXPECTED_FILES.length} files into ${join(outDir, 'bridge')}`);
  });

  it('writes bridge.zip with the same files under bridge/, readable by anyone', () => {
    const entries = readZip(readFileSync(join(outDir, 'bridge.zip')));
    expect(entries.map((entry) => entry.path)).toEqual(EXPECTED_FILES.map((file) => `bridge/${file}`));
    for (const entry of entries) {
      const file = entry.path.slice('bridge/'.length);
      expect(entry.data.equals(readFileSync(join(outDir, 'bridge', file))), file).toBe(true);
      expect(entry.mode.toString(8)).toBe('100644');
    }
  });

  it('is unzipped as both READMEs say: into resources/, which its bridge/ folder makes resources/bridge', () => {
    const folders = new Set(readZip(readFileSync(join(outDir, 'bridge.zip'))).map((entry) => entry.path.split('/')[0]));
    expect([...folders]).toEqual(['bridge']);
    for (const readme of ['README.md', 'PACKAGE-README.md']) {
      const text = readFileSync(join(REPO_ROOT, readme), 'utf8').replace(/\s+/g, ' ');
      const step = text.match(/[^.]*bridge\.zip[^.]*\./)?.[0] ?? '';
      expect(step, readme).toMatch(/unzip `(package\/)?bridge\.zip` into `resources\/`/);
      expect(step, readme).not.toMatch(/bridge\.zip`?\)? to `resources\/bridge/);
    }
  });

  describe('the packaged folder, loaded in the simulator', () => {
    let world: World;
    afterEach(async () => {
      world.sim.assertNoErrors();
      await world.close();
    });

    it('gives a joining player their profile from the panel and takes them on duty', async () => {
      world = await startWorld({ bridgeDir: join(outDir, 'bridge') });
      const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
      expect(world.eventArgs('bridge:client:profile', alex)).toEqual([
        [
          expect.objectContaining({
            ok: true,
            departments: [expect.objectContaining({ id: LSPD.id }), expect.anything()],
          }),
        ],
      ]);
      bridgeOf(alex).GetDutyOptions().departments[0]?.setActive();
      const outcomes: DutyOutcome[] = [];
      bridgeOf(alex).UpdatePlayerDuty(true, (outcome) => outcomes.push(outcome));
      await world.sim.until(() => outcomes.length > 0, 10_000, 'the duty outcome');
      expect(outcomes).toEqual([expect.objectContaining({ ok: true, onDuty: true, departmentId: LSPD.id })]);
      expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
        expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.sergeant, endedAt: null }),
      ]);
      expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[alex.id, LSPD.id, LSPD.sergeant, false]]);
    });
  });
});

describe('what packaging takes from the manifest', () => {
  it('is the manifest and every file it names, in any of its forms, but not files of other resources', () => {
    const root = mkdtempSync(join(tmpdir(), 'manifest-'));
    try {
      const manifest = [
        "fx_version 'cerulean'",
        "shared_script '@ox_lib/init.lua'",
        "shared_script 'config.lua'",
        'server_scripts { "dist/server.js", \'server/extra.lua\' }',
        "client_script 'dist/client.js'",
        "ui_page 'web/index.html'",
        "files { 'web/index.html', 'web/app.js' }",
      ].join('\n');
      writeFileSync(join(root, 'fxmanifest.lua'), manifest);
      expect(manifestFiles(root)).toEqual([
        'fxmanifest.lua',
        'config.lua',
        'dist/server.js',
        'server/extra.lua',
        'dist/client.js',
        'web/index.html',
        'web/index.html',
        'web/app.js',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

const STORED = 0;
const DEFLATED = 8;

describe('the zip writer', () => {
  it('stores what deflate cannot shrink and compresses the rest, both read back intact', () => {
    const random = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 97 + 13) % 256));
    const text = Buffer.from('duty '.repeat(200));
    const entries = readZip(
      zip([
        { path: 'a/random.bin', data: random },
        { path: 'a/text.txt', data: text },
        { path: 'a/empty', data: Buffer.alloc(0) },
      ]),
    );
    expect(entries.map((entry) => [entry.path, entry.data.length, entry.compression])).toEqual([
      ['a/random.bin', 64, STORED],
      ['a/text.txt', 1000, DEFLATED],
      ['a/empty', 0, STORED],
    ]);
    expect(entries[1]?.data.equals(text)).toBe(true);
  });

  it('gives the same bytes for the same files, whenever it runs', () => {
    const files = [{ path: 'bridge/x.lua', data: Buffer.from('print(1)') }];
    vi.useFakeTimers({ now: new Date('2024-03-01T10:00:00Z') });
    try {
      const first = Buffer.from(zip(files));
      vi.setSystemTime(new Date('2031-12-31T23:59:58Z'));
      expect(Buffer.from(zip(files)).equals(first)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
