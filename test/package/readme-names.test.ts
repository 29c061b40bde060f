import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FakeServerPort } from '../../bench/support/fake-server-port.js';
import { startBridgeClient } from '../../client/bridge-client.js';
import { packagedFiles } from '../../scripts/package.js';
import { ADMIN_COMMAND } from '../../server/edge/commands/bridge-command.js';
import { API_BASE_CONVAR, TOKEN_CONVAR } from '../../server/kernel/settings.js';
import { METRICS_TOKEN_CONVAR } from '../../server/metrics/metrics-entry.js';
import { configShape } from '../../shared/config/index.js';
import { DUTY_STATE_BAG_KEY, PUBLIC_EVENTS } from '../../shared/events.js';
import { createFakeClientPort } from '../client/fake-client-port.js';
import { REPO_ROOT } from '../e2e/support/world.js';
import { startBridge, useMockPanel } from '../server/support/bridge-harness.js';
import { clientExportRegistry } from '../types/support/export-registries.js';
import { codeSpans } from './support/markdown.js';

// Each README names everything they set, run or call (the repository's together with the docs it hands the detail
// to: docs/api.md for the exports, events and commands, docs/operations.md for running it). The names come from the
// code: the convars the running server reads, the config schema, the exports both halves register, the public
// events, the commands both halves register and the bridge command's own help. A key, export, event or command added
// to the code without a word in either README fails here.

const packageReadme = (() => {
  const source = packagedFiles(REPO_ROOT).find((file) => file.to === 'README.md');
  if (!source) throw new Error('the package has no README.md');
  return source.from;
})();

type Leaf = { safeParse(input: unknown): { success: boolean; data?: unknown } };
const isLeaf = (value: unknown): value is Leaf => typeof (value as Leaf).safeParse === 'function';

/** Every option of config.lua, as its path of keys. */
const leaves = (shape: object, prefix: string[] = []): Array<{ path: string[]; leaf: Leaf }> =>
  Object.entries(shape).flatMap(([key, value]) =>
    isLeaf(value) ? [{ path: [...prefix, key], leaf: value }] : leaves(value as object, [...prefix, key]),
  );

/** config.lua with every opt-in turned on: each option that is off (`false`) by default and accepts `true`. */
function everyOptInOn(): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const { path, leaf } of leaves(configShape)) {
    if (leaf.safeParse(undefined).data !== false || !leaf.safeParse(true).success) continue;
    const table = path.slice(0, -1).reduce<Record<string, unknown>>((parent, key) => {
      parent[key] ??= {};
      return parent[key] as Record<string, unknown>;
    }, config);
    table[path.at(-1) as string] = true;
  }
  return config;
}

// The repository's README with its docs, for developers, must name the same things (the team's rule: every convar,
// config key, export, event and command).
describe.each([
  ['the package README', [packageReadme]],
  [
    "the repository's README with docs/api.md and docs/operations.md",
    ['README.md', 'docs/api.md', 'docs/operations.md'],
  ],
])('%s', (_, files) => {
  const mock = useMockPanel();
  const spans = files.flatMap((file) => codeSpans(readFileSync(join(REPO_ROOT, file), 'utf8')));
  const hasSpan = (test: (span: string) => boolean) => spans.some(({ span }) => test(span));

  it('names every convar the server reads, with every opt-in of config.lua on', async () => {
    const read = vi.spyOn(FakeServerPort.prototype, 'convar');
    try {
      const config = everyOptInOn();
      expect(config).toMatchObject({ Metrics: true, Integrations: { RcorePolice: true } });
      await startBridge(mock.panel, { config: { value: config } });
      const convars = [...new Set(read.mock.calls.map(([name]) => name))].sort();
      expect(convars).toEqual(expect.arrayContaining([API_BASE_CONVAR, TOKEN_CONVAR, METRICS_TOKEN_CONVAR]));
      expect(convars.filter((name) => !hasSpan((span) => span === name))).toEqual([]);
    } finally {
      read.mockRestore();
    }
  });

  it('names every config.lua key: as Config.<path>, or in a paragraph that names its table', () => {
    const paths = leaves(configShape).map(({ path }) => path);
    expect(paths.length).toBeGreaterThan(10);
    const unnamed = paths.filter((path) => {
      const full = `Config.${path.join('.')}`;
      const table = `Config.${path.slice(0, -1).join('.')}`;
      const key = path.at(-1) as string;
      return !spans.some(
        ({ span, paragraph }) =>
          span === full || (path.length > 1 && span === key && paragraph.includes(`\`${table}\``)),
      );
    });
    expect(unnamed.map((path) => path.join('.'))).toEqual([]);
  });

  it('names every export of both halves, as a call', async () => {
    const { port } = await startBridge(mock.panel);
    const server = [...port.exported.keys()];
    const client = [...clientExportRegistry().keys()];
    expect(server.length).toBeGreaterThan(0);
    expect(client.length).toBeGreaterThan(0);
    const unnamed = [...new Set([...server, ...client])].filter(
      (name) => !hasSpan((span) => span.startsWith(`${name}(`)),
    );
    expect(unnamed).toEqual([]);
  });

  it('names every public event and the duty state bag', () => {
    const names = [...Object.values(PUBLIC_EVENTS), DUTY_STATE_BAG_KEY];
    expect(names.filter((name) => !hasSpan((span) => span === name))).toEqual([]);
  });

  it('names every command both halves register, and every subcommand the bridge command lists', async () => {
    const running = await startBridge(mock.panel);
    const serverCommands = [...running.port.commands.keys()];
    expect(serverCommands).toContain(ADMIN_COMMAND);
    // `bridge help` lists each subcommand on a line of its own: `  <name> <usage>  <summary>`.
    const subcommands = running.port
      .runCommand(`${ADMIN_COMMAND} help`)
      .flatMap((line) => /^ {2}(\S+)/.exec(line)?.[1] ?? []);
    expect(subcommands).toContain('help');
    // The client registers opt-in commands (the duty command) only when config.lua turns them on.
    const client = createFakeClientPort({ config: everyOptInOn() });
    startBridgeClient(client.port);
    const clientCommands = [...client.commands.keys()];
    expect(clientCommands.length).toBeGreaterThan(0);

    const written = [
      ...subcommands.map((name) => `${ADMIN_COMMAND} ${name}`),
      ...serverCommands.filter((name) => name !== ADMIN_COMMAND),
      ...clientCommands.map((name) => `/${name}`),
    ];
    const unnamed = written.filter((command) => !hasSpan((span) => span === command || span.startsWith(`${command} `)));
    expect(unnamed).toEqual([]);
  });
});

// The README's table for resource developers is what most read first: it must not be a step behind docs/api.md.
describe("the repository README's table for resource developers", () => {
  const mock = useMockPanel();
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## For resource developers\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const spans = codeSpans(section).map(({ span }) => span);

  it('names every export of both halves, as a call', async () => {
    expect(start).toBeGreaterThan(0);
    const { port } = await startBridge(mock.panel);
    const names = [...new Set([...port.exported.keys(), ...clientExportRegistry().keys()])];
    expect(names.filter((name) => !spans.some((span) => span.startsWith(`${name}(`)))).toEqual([]);
  });

  it('names every public event', () => {
    expect(Object.values(PUBLIC_EVENTS).filter((name) => !spans.includes(name))).toEqual([]);
  });
});

describe('the install snippet', () => {
  /** The server.cfg lines of the "Add to `server.cfg`" step. */
  const snippetOf = (file: string) => {
    const text = readFileSync(file, 'utf8');
    return /Add to `server\.cfg`:\s*```cfg\n([\s\S]*?)```/.exec(text)?.[1]?.replace(/^ +/gm, '');
  };

  it('is the same in the repository README and in the package README', () => {
    const repository = snippetOf(join(REPO_ROOT, 'README.md'));
    expect(repository).toContain('ensure bridge');
    expect(snippetOf(packageReadme)).toBe(repository);
  });
});

describe('types/README.md', () => {
  const NUMBERS = ['none', 'one', 'two', 'three', 'four', 'five', 'six'];

  it.each(['server', 'client'])('counts the bridge:%s:* events as there are', (side) => {
    const text = readFileSync(join(REPO_ROOT, 'types', 'README.md'), 'utf8');
    const count = Object.values(PUBLIC_EVENTS).filter((name) => name.startsWith(`bridge:${side}:`)).length;
    const said = new RegExp(`the (\\w+) \`bridge:${side}:\\*\` events`).exec(text)?.[1];
    expect(said).toBe(NUMBERS[count]);
  });
});

describe('docs/api.md', () => {
  it('gives each export one row of its table (the client exports, the server exports)', () => {
    // A table is a run of lines that start with `|`; a blank line or text ends it.
    const tables = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8')
      .split(/\n(?!\|)/)
      .map((block) => block.split('\n').flatMap((line) => /^\| `(\w+)\(/.exec(line)?.[1] ?? []))
      .filter((names) => names.length > 0);
    expect(tables.length).toBeGreaterThanOrEqual(2);
    const repeated = tables.flatMap((names) => names.filter((name, index) => names.indexOf(name) !== index));
    expect(repeated).toEqual([]);
  });
});
