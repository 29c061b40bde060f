import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../../e2e/support/world.js';
import { cachingCompilerHost } from '../../support/typescript-host.js';

export const TYPES_DIR = join(REPO_ROOT, 'types');

const format = (diagnostics: readonly ts.Diagnostic[]): string[] =>
  diagnostics.map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${text}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName.replace(`${REPO_ROOT}/`, '')}:${line + 1} TS${diagnostic.code}: ${text}`;
  });

/** Every diagnostic of a tsconfig project, as `file:line TScode: message`. */
export function projectDiagnostics(tsconfigPath: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfigPath}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: cachingCompilerHost(parsed.options),
  });
  return format([...parsed.errors, ...ownDiagnostics(program)]);
}

/**
 * What `tsc` reports, except the semantic check of the declaration files under node_modules (@citizenfx's natives,
 * TypeScript's libs). Those are not ours, and a consumer's compiler reports the same on them whatever our types say.
 * Checking them was about 1 s of CPU a program, against 50 ms for the rest. Where one of our files merges into
 * theirs and clashes, the error is reported in our file, which is checked.
 */
function ownDiagnostics(program: ts.Program): ts.Diagnostic[] {
  const own = program.getSourceFiles().filter((file) => !file.fileName.includes('/node_modules/'));
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...own.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
}

export interface SourceCheck {
  /** Files by path relative to the repository root; they may replace real files (a broken types/index.d.ts). */
  files: Record<string, string>;
  /** Other real files to compile with them (types/client.d.ts, say). */
  include?: string[];
  /** The FiveM typings of the side: `@citizenfx/client` or `@citizenfx/server`. */
  types?: string[];
  /** Skip checking declaration files; they still type what uses them. */
  skipLibCheck?: boolean;
}

/** Type-checks in-memory sources as a strict consumer project in the repository would compile them. */
export function sourceDiagnostics({ files, include = [], types = [], skipLibCheck = false }: SourceCheck): string[] {
  const virtual = new Map(Object.entries(files).map(([path, text]) => [join(REPO_ROOT, path), text]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2020,
    lib: ['lib.es2020.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    verbatimModuleSyntax: true,
    types,
    skipLibCheck,
  };
  const host = cachingCompilerHost(options);
  const readReal = host.readFile.bind(host);
  const existsReal = host.fileExists.bind(host);
  const getReal = host.getSourceFile.bind(host);
  host.getCurrentDirectory = () => REPO_ROOT;
  host.fileExists = (path) => virtual.has(path) || existsReal(path);
  host.readFile = (path) => virtual.get(path) ?? readReal(path);
  host.getSourceFile = (path, language, onError) => {
    const text = virtual.get(path);
    return text === undefined ? getReal(path, language, onError) : ts.createSourceFile(path, text, language, true);
  };
  const rootNames = [...virtual.keys(), ...include.map((path) => join(REPO_ROOT, path))];
  return format(ownDiagnostics(ts.createProgram({ rootNames, options, host })));
}
