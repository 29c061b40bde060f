// FiveM's globals (emitNet, onNet, GetConvar, SetResourceKvp, exports, source...) are used only in the edge's adapter,
// server/edge/fivem/, and server/duty/decide.ts reads no clock. Found with the type checker: a name counts when it
// resolves only to declarations in @citizenfx's types (Node declares setTimeout too), or, for the clock, to Date,
// performance or a timer.
//
// Why it is cheap: a global is reached only by a name resolved through scopes (`emitNet`, `{ emitNet }`, a type name)
// or as a member of the global object (`globalThis.emitNet`, `global['emitNet']`). So the checker is asked only there,
// and only for names @citizenfx spells. It never types the `a` of `a.emitNet`, which was most of the old cost. The
// program also leaves the server's own imports unresolved: the global scope comes from the libs and the `types` of
// server/tsconfig.json, and a package left out can only take a declaration away, which makes the check stricter.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const ADAPTER = 'server/edge/fivem/';
const CLOCK = new Set(['Date', 'performance', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);
const GLOBAL_OBJECTS = new Set(['globalThis', 'global']);
const isPackageFile = (file: string) => file.includes('/node_modules/');

function serverProgram(extra: string[] = []) {
  const configPath = join(root, 'server', 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, join(root, 'server'), undefined, configPath);
  const host = ts.createCompilerHost(parsed.options);
  // Imports from the server's files stay unresolved (each import is then a local alias, never a global), so rxjs,
  // ioredis, zod and the rest are not parsed. Packages' own references still resolve: @types/node needs undici's.
  host.resolveModuleNameLiterals = (literals, containing, redirect, options, file) =>
    literals.map((literal) =>
      isPackageFile(containing)
        ? ts.resolveModuleName(
            literal.text,
            containing,
            options,
            host,
            undefined,
            redirect,
            ts.getModeForUsageLocation(file, literal, options),
          )
        : { resolvedModule: undefined },
    );
  return ts.createProgram([...parsed.fileNames, ...extra], parsed.options, host);
}

/**
 * Every name @citizenfx's types spell, as an identifier or a string: a symbol declared only there has one of these
 * names, so a name outside this set needs no look-up in the type checker.
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

const isGlobalObject = (node: ts.Expression) => ts.isIdentifier(node) && GLOBAL_OBJECTS.has(node.text);

/**
 * The symbol a name reaches when it may be a global, or undefined where it cannot be one: a member of anything but
 * the global object, a declaration's own name, a property name in a literal or a type, an import or export
 * specifier, a label. Those are most identifiers, and the checker's answer for `a.b` needs the type of `a`.
 */
function globalCandidate(checker: ts.TypeChecker, node: ts.Identifier | ts.StringLiteralLike): ts.Symbol | undefined {
  const parent = node.parent;
  if (ts.isStringLiteralLike(node))
    return ts.isElementAccessExpression(parent) &&
      parent.argumentExpression === node &&
      isGlobalObject(parent.expression)
      ? checker.getSymbolAtLocation(node)
      : undefined;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node)
    return isGlobalObject(parent.expression) ? checker.getSymbolAtLocation(node) : undefined;
  // `{ emitNet }` declares a property and reads the name in scope; the read is what may be a global.
  if (ts.isShorthandPropertyAssignment(parent) && parent.name === node)
    return checker.getShorthandAssignmentValueSymbol(parent);
  if (ts.isQualifiedName(parent) && parent.right === node) return undefined;
  if (ts.isBindingElement(parent) && parent.propertyName === node) return undefined;
  if (ts.getNameOfDeclaration(parent as ts.Declaration) === node) return undefined;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent)) return undefined;
  if (ts.isNamespaceImport(parent) || ts.isNamespaceExport(parent) || ts.isImportEqualsDeclaration(parent))
    return undefined;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent) || ts.isMetaProperty(parent))
    return undefined;
  return checker.getSymbolAtLocation(node);
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
      if (
        (ts.isIdentifier(node) || ts.isStringLiteralLike(node)) &&
        (fivem.has(node.text) || (isDecide && CLOCK.has(node.text)))
      ) {
        const declarations = globalCandidate(checker, node)?.declarations ?? [];
        const from = declarations.map((d) => d.getSourceFile().fileName);
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        if (from.length > 0 && from.every((f) => f.includes('@citizenfx')))
          found.push(`${file}:${line} ${node.text} (FiveM)`);
        else if (isDecide && CLOCK.has(node.text) && from.some(isPackageFile))
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
// them and server/: building it is most of this file's time, and each test reads its own files.
const planted = join(scratch, 'planted.ts');
writeFileSync(
  planted,
  [
    "export const send = (src: number) => emitNet('bridge:x', src);",
    "export const convar = GetConvar('x', '');",
    "export const viaGlobal = () => globalThis.TriggerClientEvent('bridge:y', -1);",
    "export const viaIndex = () => global['GetPlayerName']('1');",
    'export const handlers = { onNet };',
    // A local named like a FiveM global, its parameter, and a property of that name: none of them is FiveM's.
    'const GetPlayerPing = (source: number) => source;',
    'export const ping = GetPlayerPing(1) + { emitNet: 2 }.emitNet;',
    'export const own = (api: { GetConvar: () => string }) => api.GetConvar();',
  ].join('\n'),
);
mkdirSync(join(scratch, 'server', 'duty'), { recursive: true });
const plantedDecide = join(scratch, 'server', 'duty', 'decide.ts');
writeFileSync(
  plantedDecide,
  [
    'export const decide = () => ({ at: Date.now(), mark: performance.now() });',
    // A parameter and a property named like a clock are the caller's values, not a clock.
    'export const later = (setTimeout: (f: () => void) => void, o: { Date: number }) => (setTimeout(() => {}), o.Date);',
  ].join('\n'),
);
let program: ts.Program | undefined;
const withPlanted = () => {
  program ??= serverProgram([planted, plantedDecide]);
  return program;
};

describe('FiveM globals and the clock', { timeout: 120_000 }, () => {
  it('appear only in server/edge/fivem/, and decide.ts reads no clock', () => {
    expect(breaches(withPlanted(), (f) => f.startsWith('server/'))).toEqual([]);
  });

  it('finds a FiveM global used outside the adapter, by file and line, and not a local of the same name', () => {
    const found = breaches(withPlanted(), (f) => f.endsWith('planted.ts'));
    expect(found.map((f) => f.replace(/^.*planted\.ts/, 'planted.ts'))).toEqual([
      'planted.ts:1 emitNet (FiveM)',
      'planted.ts:2 GetConvar (FiveM)',
      'planted.ts:3 TriggerClientEvent (FiveM)',
      'planted.ts:4 GetPlayerName (FiveM)',
      'planted.ts:5 onNet (FiveM)',
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
