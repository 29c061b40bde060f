// Loading a part of the bridge that only some servers turn on, and saying plainly why one did not load.

import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errorText, type Logger } from './log.js';

/**
 * FXServer's global `require` as main.ts hands it on: it loads a CommonJS file beside dist/server.js. Absent when the
 * runtime has none (a test that runs the bridge from source and provides no optional module).
 */
export type LoadModule = ((path: string) => unknown) & {
  /** Where `path` is, as Node's `require.resolve` says: to tell why a module loaded empty. */
  resolve?: (path: string) => string;
};

/**
 * A part of the bridge that only some servers turn on, shipped as its own CommonJS file (a tsup entry of its own):
 * dist/server.js loads it only when the owner turns its feature on, so a server without the feature never parses it
 * and dist/server.js keeps within its size budget (test/build/bundle-size.test.ts).
 *
 * Where the file is: FXServer's Node runtime makes every resource's global `require` the require of a module at
 * `<resource path>/dummy.js`, searching `<resource path>/node_modules` and the folders above (citizenfx/fivem,
 * code/components/citizen-scripting-node/include/JavaScriptEnvironmentCode.h, `m.filename = Citizen.getResourcePath()
 * + '/dummy.js'`, since 6c7a57388, read at 06d4d348c): so a relative name resolves from the resource's folder,
 * whichever script asks. The file need not be named in fxmanifest.lua: the server mounts each resource's whole folder
 * as `@<name>/` (code/components/citizen-server-impl/src/ServerResources.cpp, `vfs::Mount`) and the Node sandbox lets
 * a script read any mounted path (citizen-scripting-node/src/NodeScriptRuntime.cpp, `NodePermissionCallback`: "no
 * device found" is the only refusal of a read). Listing it as a server_script would run it at every start, which is
 * what this avoids. sim/js/node-globals.ts makes the simulator's `require` the same way.
 *
 * Each file bundles its own copy of the libraries it uses (rxjs, zod), so what crosses between dist/server.js and it
 * is plain data, plain functions and objects of functions, and Observables only subscribed to: nothing whose class,
 * `instanceof` or identity one side would check against its own copy.
 */
export interface OptionalModule {
  /** The file, relative to the resource's folder: `./dist/metrics.cjs`. */
  readonly path: string;
  /** The function of its entry (tsup.config.ts) the bridge starts it with: a file without it is not the bridge's. */
  readonly start: string;
  /** What the server does without it, the last sentence of the error: `The metrics endpoint stays off.` */
  readonly without: string;
}

export interface OptionalModuleLoad {
  /** Why it is loaded, as the owner turned it on: `Config.Metrics is on`. */
  wanted: string;
  load: LoadModule | undefined;
  logger: Logger;
}

// Node's "Cannot find module" goes on with the require stack: its first line says it all.
const reasonOf = (error: unknown): string => errorText(error).split('\n')[0] as string;

/** A module's start function, as its entry exports it: one argument of plain data and functions. */
// biome-ignore lint/suspicious/noExplicitAny: any function of one argument; `never` would not let Parameters read it.
type StartFunction = (options: any) => unknown;

/**
 * Loads the module and calls its start function with `options` (`Start` is that function's type, read from the
 * entry with `typeof`). Anything wrong (the file missing, empty, read as an ES module, not the bridge's, failing as it
 * starts) is one ERROR naming what was wanted, the file, what is wrong with it, what to do and what the server goes on
 * without, and undefined: the bridge runs on without that feature.
 */
export function startOptionalModule<Start extends StartFunction>(
  module: OptionalModule,
  { wanted, load, logger }: OptionalModuleLoad,
  options: Parameters<Start>[0],
): ReturnType<Start> | undefined {
  const fail = (what: string) => {
    logger.error(`${wanted} but ${module.path} ${what}. ${module.without}`);
    return undefined;
  };
  const resolved = () => {
    try {
      return load?.resolve?.(module.path);
    } catch {
      return undefined;
    }
  };
  let loaded: unknown;
  try {
    if (typeof load !== 'function') throw new Error('this runtime has no require');
    loaded = load(module.path);
  } catch (error) {
    // Node 20 refuses CommonJS read as an ES module (`module` is not defined there); Node 22 may load it empty.
    if (/ES module/.test(reasonOf(error)) && moduleTypeOwner(resolved() ?? ''))
      return fail(emptyModuleReason(resolved()));
    return fail(`could not be loaded (${reasonOf(error)}); reinstall the resource`);
  }
  if (typeof loaded === 'object' && loaded !== null && Reflect.ownKeys(loaded).length === 0) {
    return fail(emptyModuleReason(resolved()));
  }
  const start = (loaded as Record<string, unknown> | undefined)?.[module.start];
  if (typeof start !== 'function')
    return fail(`is not the bridge's: it has no ${module.start}(); reinstall the resource`);
  try {
    return start(options) as ReturnType<Start>;
  } catch (error) {
    return fail(`failed as it started (${reasonOf(error)}); reinstall the resource`);
  }
}

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
