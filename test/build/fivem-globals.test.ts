// FiveM's globals (emitNet, onNet, GetConvar, SetResourceKvp, exports, source...) are used only in the edge's adapter,
// server/edge/fivem/, and server/duty/decide.ts reads no clock. Found with the type checker: an identifier counts when
// it resolves only to declarations in @citizenfx's types (Node declares setTimeout too) (or, for the clock, to Date, performance or a timer).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const ADAPTER = 'server/edge/fivem/';
const CLOCK = new Set(['Date', 'performance', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);

function serverProgram(extra: string[] = []) {
  const configPath = join(root, 'server', 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, join(root, 'server'), undefined, configPath);
  return ts.createProgram([...parsed.fileNames, ...extra], parsed.options);
}

/**
 * Every name @citizenfx's types spell, as an identifier or a string: a symbol declared only there has one of these
 * names, so identifiers with any other name need no look-up in the type checker, which is most of the check's time.
 */
const namesOf = new WeakMap<ts.Program, Set<string>>();
function citizenfxNames(program: ts.Program): Set<string> {
  const known = namesOf.get(program);
  if (known) return known;
  const names = new Set<string>();
  namesOf.set(program, names);
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.includes('@citizenfx')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) || ts.isStringLiteralLike(node)) names.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return names;
}

/** Each `file:line name` where a server file outside the adapter names a FiveM global, or decide.ts a clock. */
function breaches(program: ts.Program, isServerFile: (file: string) => boolean): string[] {
  const checker = program.getTypeChecker();
  const fivem = citizenfxNames(program);
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    const file = relative(root, source.fileName).replaceAll('\\', '/');
    if (!isServerFile(file) || file.startsWith(ADAPTER)) continue;
    const isDecide = file.endsWith('server/duty/decide.ts');
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && (fivem.has(node.text) || (isDecide && CLOCK.has(node.text)))) {
        const declarations = checker.getSymbolAtLocation(node)?.declarations ?? [];
        const from = declarations.map((d) => d.getSourceFile().fileName);
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        if (from.length > 0 && from.every((f) => f.includes('@citizenfx')))
          found.push(`${file}:${line} ${node.text} (FiveM)`);
        else if (isDecide && CLOCK.has(node.text) && from.some((f) => f.includes('node_modules')))
          found.push(`${file}:${line} ${node.text} (clock)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const scratch = mkdtempSync(join(tmpdir(), 'fivem-globals-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The breaches the tests plant, outside the repository (so the first test does not see them). One program holds
// them and server/: building and checking it is most of this file's time, and each test reads its own files.
const planted = join(scratch, 'planted.ts');
writeFileSync(
  planted,
  "export const send = (src: number) => emitNet('bridge:x', src);\nexport const convar = GetConvar('x', '');\n",
);
mkdirSync(join(scratch, 'server', 'duty'), { recursive: true });
const plantedDecide = join(scratch, 'server', 'duty', 'decide.ts');
writeFileSync(plantedDecide, 'export const decide = () => ({ at: Date.now(), mark: performance.now() });\n');
let program: ts.Program | undefined;
const withPlanted = () => {
  program ??= serverProgram([planted, plantedDecide]);
  return program;
};

describe('FiveM globals and the clock', { timeout: 120_000 }, () => {
  it('appear only in server/edge/fivem/, and decide.ts reads no clock', () => {
    expect(breaches(withPlanted(), (f) => f.startsWith('server/'))).toEqual([]);
  });

  it('finds a FiveM global used outside the adapter, by file and line', () => {
    const found = breaches(withPlanted(), (f) => f.endsWith('planted.ts'));
    expect(found.map((f) => f.replace(/^.*planted\.ts/, 'planted.ts'))).toEqual([
      'planted.ts:1 emitNet (FiveM)',
      'planted.ts:2 GetConvar (FiveM)',
    ]);
  });

  it('finds a clock read in decide.ts', () => {
    const found = breaches(withPlanted(), (f) => f.endsWith('server/duty/decide.ts') && !f.startsWith('server/'));
    expect(found.map((f) => f.replace(/^.*decide\.ts/, 'decide.ts'))).toEqual([
      'decide.ts:1 Date (clock)',
      'decide.ts:1 performance (clock)',
    ]);
  });
});
