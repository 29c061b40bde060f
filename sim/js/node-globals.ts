// The server's JS runs in FXServer's embedded Node 22, so a server runtime sees Node's globals (fivem-runtime.md
// §10.2): require (built-ins, then the resource's node_modules), process, Buffer, fetch and the other web globals,
// and the built-in modules as REPL-style globals. There is no module, __dirname or CommonJS `exports` (that name is
// FiveM's export proxy). Timers are FiveM's tick timers, installed separately.
import fs from 'node:fs';
import Module, { builtinModules, isBuiltin } from 'node:module';
import path from 'node:path';

interface ModuleInternals {
  filename: string;
  paths: string[];
  exports: { require?: NodeJS.Require };
  _compile(content: string, filename: string): void;
}
type ModuleClass = (new (id: string) => ModuleInternals) & { _nodeModulePaths(from: string): string[] };

/**
 * The global `require` of a server script, made the way FXServer makes it (citizenfx/fivem at 06d4d348c,
 * code/components/citizen-scripting-node/include/JavaScriptEnvironmentCode.h): the require of a module at
 * `<resource>/dummy.js` whose search paths are `Module._nodeModulePaths(<resource>/)`. So a relative name resolves
 * from the resource's folder whichever script asks, and a package from `<resource>/node_modules` and the folders
 * above. FXServer's Node sandbox then lets a script read only paths the VFS mounts (every resource's folder,
 * `@<name>/`; NodeScriptRuntime.cpp `NodePermissionCallback`), checked on the path Node reads, i.e. after symlinks
 * are resolved: a file outside every resource folder is refused as FXServer refuses it.
 */
function fxserverRequire(resourceDir: string, mountedDirs: () => readonly string[]): NodeJS.Require {
  const ModuleOf = Module as unknown as ModuleClass;
  const m = new ModuleOf('dummy.js');
  m.filename = `${resourceDir}/dummy.js`;
  m.paths = ModuleOf._nodeModulePaths(`${resourceDir}/`);
  m._compile('module.exports = {require};', 'dummy-wrapper');
  const inner = m.exports.require as NodeJS.Require;
  const real = (dir: string) => {
    try {
      return fs.realpathSync(dir);
    } catch {
      return dir;
    }
  };
  const mounted = (file: string) =>
    mountedDirs().some((dir) => {
      const relative = path.relative(real(dir), file);
      return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
    });
  // Node keeps one module cache per process, keyed by the file, and remembers what a relative name resolved to by the
  // asking module's folder, which for this dummy module is `.` in every resource. The simulator runs many servers in
  // one process: so each runtime loads exactly the file it resolved (and checked) and keeps its own modules, as each
  // FXServer process does, instead of getting another resource's or another server's.
  const loaded = new Map<string, unknown>();
  const guarded = ((id: string) => {
    if (isBuiltin(id)) return inner(id);
    const file = inner.resolve(id);
    if (!mounted(file)) {
      throw Object.assign(new Error(`Access to this API has been restricted: ${file} is outside every resource`), {
        code: 'ERR_ACCESS_DENIED',
      });
    }
    if (loaded.has(file)) return loaded.get(file);
    delete inner.cache[file];
    try {
      const exports: unknown = inner(file);
      loaded.set(file, exports);
      return exports;
    } finally {
      delete inner.cache[file];
    }
  }) as NodeJS.Require;
  return Object.assign(guarded, {
    resolve: inner.resolve,
    cache: inner.cache,
    main: inner.main,
    extensions: inner.extensions,
  });
}

/** process.exit would end the test run; in FXServer it takes the whole server down, so it is reported instead. */
function guardedProcess(onExit: (code: number) => void): NodeJS.Process {
  return new Proxy(process, {
    get(target, key) {
      if (key === 'exit' || key === 'reallyExit' || key === 'abort') {
        return (code?: number) => {
          onExit(code ?? 0);
          throw new Error(`Node.js exiting (exit code ${code ?? 0})`);
        };
      }
      return Reflect.get(target, key, target);
    },
  });
}

const excludedModules = new Set(['module', 'console', 'process']);

const webGlobals = [
  'Buffer',
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'AbortController',
  'AbortSignal',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'structuredClone',
  'queueMicrotask',
  'atob',
  'btoa',
  'crypto',
  'Event',
  'EventTarget',
  'DOMException',
  'MessageChannel',
  'MessagePort',
  'BroadcastChannel',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'WebSocket',
] as const;

export function installNodeGlobals(
  sandbox: Record<string, unknown>,
  resourceDir: string,
  hooks: {
    onExit: (code: number) => void;
    adoptPromise: <T>(p: Promise<T>) => Promise<T>;
    /** Milliseconds since the server started, on the monotonic clock. */
    performanceNow: () => number;
    /** When the server started (epoch ms, read once as Node does at process start). */
    performanceTimeOrigin: () => number;
    /** The folders of every resource the server knows: what FXServer's VFS mounts. */
    mountedDirs: () => readonly string[];
    /** The machine's network (SimOptions.fetch); the host's fetch when undefined. */
    fetch?: typeof fetch;
  },
): void {
  const g = globalThis as unknown as Record<string, unknown>;
  for (const name of webGlobals) if (g[name] !== undefined) sandbox[name] = g[name];
  // fetch returns a promise of the script's realm, so an unhandled rejection is reported as the script's.
  const hostFetch = (hooks.fetch ?? g.fetch) as ((...args: unknown[]) => Promise<unknown>) | undefined;
  if (hostFetch) sandbox.fetch = (...args: unknown[]) => hooks.adoptPromise(hostFetch(...args));
  sandbox.process = guardedProcess(hooks.onExit);
  sandbox.require = fxserverRequire(resourceDir, hooks.mountedDirs);
  sandbox.performance = { now: hooks.performanceNow, timeOrigin: hooks.performanceTimeOrigin() };
  const requireFn = sandbox.require as NodeJS.Require;
  for (const name of builtinModules) {
    // `module` must stay undefined: bundles test `typeof module` to pick CommonJS, which FXServer scripts are not.
    if (name.includes('/') || name.startsWith('_') || name in sandbox || excludedModules.has(name)) continue;
    Object.defineProperty(sandbox, name, {
      configurable: true,
      enumerable: false,
      get: () => requireFn(name),
      set: (v) => Object.defineProperty(sandbox, name, { value: v, writable: true, configurable: true }),
    });
  }
}
