import ts from 'typescript';
import { cachingCompilerHost } from '../support/typescript-host.js';

// "Cannot find name" diagnostics: the checker reports every global a script uses that its environment lacks.
const MISSING_NAME_CODES = new Set([2304, 2552, 2580, 2581, 2582, 2584, 2591, 2592, 2593]);

/** Globals `file` references that are not declared by the given libs and type packages. */
export function undeclaredGlobals(file: string, options: { lib: string[]; types: string[] }): string[] {
  const compilerOptions: ts.CompilerOptions = {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    lib: options.lib,
    types: options.types,
    target: ts.ScriptTarget.ES2020,
    skipLibCheck: true,
  };
  const program = ts.createProgram([file], compilerOptions, cachingCompilerHost(compilerOptions));
  const names = new Set<string>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    if (diagnostic.file?.fileName.endsWith('.d.ts')) continue;
    if (!MISSING_NAME_CODES.has(diagnostic.code)) continue;
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const name = /'([^']+)'/.exec(text)?.[1];
    if (name) names.add(name);
  }
  const source = program.getSourceFile(file);
  if (source && usesUndeclaredRequire(source)) names.add('require');
  return [...names].sort();
}

// In a JS file the checker takes `require('x')` for a module import and never reports the global, so look for it.
function usesUndeclaredRequire(source: ts.SourceFile): boolean {
  let used = false;
  let declared = false;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'require') {
      const parent = node.parent;
      const isDeclaration =
        (ts.isVariableDeclaration(parent) || ts.isFunctionDeclaration(parent) || ts.isParameter(parent)) &&
        parent.name === node;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === node;
      if (isDeclaration) declared = true;
      else if (!isPropertyName) used = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return used && !declared;
}

/** Assignments to the CommonJS `exports`/`module` objects, which throw under FXServer's export proxy. */
export function commonJsAssignments(file: string, code: string): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const found: string[] = [];
  const rootName = (node: ts.Expression): string | undefined => {
    let current = node;
    while (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current))
      current = current.expression;
    return ts.isIdentifier(current) ? current.text : undefined;
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ['exports', 'module'].includes(rootName(node.left) ?? '')
    ) {
      found.push(node.getText(source).slice(0, 80));
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.getText(source) === 'Object.defineProperty' &&
      ['exports', 'module'].includes(node.arguments[0]?.getText(source) ?? '')
    ) {
      found.push(node.getText(source).slice(0, 80));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
