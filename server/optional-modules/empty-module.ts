import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The package.json whose `"type": "module"` makes Node read `file` as an ES module, or nothing. Node decides a `.js`
 * file's format by the nearest package.json above it, whichever folder that is (the checkout's own, or one above the
 * resource folder); `.cjs` is CommonJS and `.mjs` an ES module whatever it says.
 */
export function moduleTypeOwner(file: string): string | undefined {
  if (!file.endsWith('.js')) return undefined;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const packageJson = join(dir, 'package.json');
    let text: string | undefined;
    try {
      text = readFileSync(packageJson, 'utf8');
    } catch {
      // None here (or FXServer's sandbox refuses a folder above the resources): Node looks further up.
    }
    if (text !== undefined) {
      try {
        return (JSON.parse(text) as { type?: unknown }).type === 'module' ? packageJson : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * What is wrong with an optional module that loaded as an empty module, or failed as an ES module, and what to do:
 * the clause after the file's name in the ERROR. `file` is where `require` resolved it, when the runtime says.
 */
export function emptyModuleReason(file: string | undefined): string {
  const owner = file === undefined ? undefined : moduleTypeOwner(file);
  if (owner) {
    return `was read as an ES module, not CommonJS: ${owner} says "type": "module" (FXServer's require is Node's); rebuild with npm run build, whose optional modules are .cjs files, or reinstall the resource`;
  }
  let bytes: number | undefined;
  try {
    bytes = file === undefined ? undefined : statSync(file).size;
  } catch {
    bytes = undefined;
  }
  return bytes === 0 ? 'is empty (0 bytes); reinstall the resource' : 'exports nothing; reinstall the resource';
}
