// The client examples of docs/api.md and types/README.md, extracted from the Markdown and run as another resource's
// client scripts in the simulator against the built bridge: for a player without departments (the panel answers
// ok with an empty list), one with one and one with two.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DutyOptions } from '../../shared/events.js';
import type { SimPlayer } from '../../sim/index.js';
import { REPO_ROOT, startWorld, type World } from '../e2e/support/world.js';
import { NO_DEPARTMENTS, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { sourceDiagnostics } from './support/type-check.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

/** The first fenced block of `lang` after the line that holds `marker`. */
function blockAfter(markdown: string, marker: string, lang: string): string {
  const start = markdown.indexOf(marker);
  const block = start < 0 ? null : new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\n`).exec(markdown.slice(start));
  if (!block?.[1]) throw new Error(`no \`\`\`${lang} block after "${marker}"`);
  return block[1];
}

const api = read('docs/api.md');
const types = read('types/README.md');
const API_CLIENT = "Lua (a duty menu in another resource's client script):";
/**
 * Each example, as a client export of the test resource that runs it, and what it does for a player with
 * departments: go on duty for the first (`duty`), or only select it (`selection`).
 */
const EXAMPLES = {
  apiLua: { lang: 'lua', code: blockAfter(api, API_CLIENT, 'lua'), effect: 'duty' },
  apiJs: { lang: 'js', code: blockAfter(api, API_CLIENT, 'js'), effect: 'duty' },
  typesLua: { lang: 'lua', code: blockAfter(types, 'misses `self` is flagged', 'lua'), effect: 'selection' },
  typesTs: { lang: 'ts', code: blockAfter(types, 'Client script:', 'ts'), effect: 'duty' },
} as const;

/** A client script defining an export that runs the example: Lua as it is, JS and TS with their types stripped. */
function scriptOf(name: string, { lang, code }: { lang: string; code: string }): string {
  if (lang === 'lua') return `exports('${name}', function()\n${code}\nend)\n`;
  const js =
    lang === 'ts' ? ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText : code;
  return `exports('${name}', () => {\n${js.replace(/^export \{\};$/m, '')}\n});\n`;
}

describe('the client examples of docs/api.md and types/README.md', () => {
  let world: World;
  const dir = mkdtempSync(join(tmpdir(), 'doc-examples-'));
  beforeAll(async () => {
    const resource = join(dir, 'doc_examples');
    mkdirSync(resource);
    const files = Object.entries(EXAMPLES).map(([name, example]) => {
      const file = `${name}.${example.lang === 'lua' ? 'lua' : 'js'}`;
      writeFileSync(join(resource, file), scriptOf(name, example));
      return `'${file}'`;
    });
    writeFileSync(
      join(resource, 'fxmanifest.lua'),
      `fx_version 'cerulean'\ngame 'gta5'\nlua54 'yes'\ndependency 'bridge'\nclient_scripts { ${files.join(', ')} }\n`,
    );
    world = await startWorld({ resources: [resource] });
  });
  afterAll(async () => {
    await world?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (player: SimPlayer, name: keyof typeof EXAMPLES) => {
    try {
      (player.exports.doc_examples as Record<string, () => unknown>)[name]?.();
    } catch {
      // The script error it printed is what assertNoErrors reports, with the example's line.
    }
    await world.sim.settle();
  };

  it.each(Object.keys(EXAMPLES) as Array<keyof typeof EXAMPLES>)(
    '%s runs for a player without departments without a script error, and does its work for one with some',
    async (name) => {
      world.sim.clearLogs();
      for (const chatId of [NO_DEPARTMENTS, ONE_DEPARTMENT, TWO_DEPARTMENTS]) {
        const player = await world.join(chatId);
        const before = world.panel.controls.sessions(chatId).length;
        const options = player.exports.bridge.GetDutyOptions() as DutyOptions;
        // The case the examples must survive: the panel answers ok, with no department.
        expect(options.ok).toBe(true);
        await run(player, name);
        world.sim.assertNoErrors();
        const first = options.departments[0]?.id;
        if (first === undefined) expect(world.panel.controls.sessions(chatId)).toHaveLength(before);
        else if (EXAMPLES[name].effect === 'selection') {
          expect((player.exports.bridge.GetDutyOptions() as DutyOptions).selectedDeptId).toBe(first);
        } else {
          await world.sim.until(() => world.panel.controls.sessions(chatId).length > before, 10_000, 'the duty');
          expect(world.panel.controls.sessions(chatId).at(-1)?.departmentId).toBe(first);
        }
        player.drop();
        await world.sim.settle();
      }
    },
  );

  it('typesTs type-checks as a client script, its import pointed at types/', () => {
    const source = EXAMPLES.typesTs.code.replace("from '@bridge/types'", "from '../../types/index.js'");
    expect(source).not.toBe(EXAMPLES.typesTs.code);
    const diagnostics = sourceDiagnostics({
      files: { 'test/examples/consumer.ts': source },
      include: ['types/client.d.ts'],
      types: ['@citizenfx/client'],
    });
    expect(diagnostics).toEqual([]);
  });
});
