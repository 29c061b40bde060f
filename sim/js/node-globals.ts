// The server's JS runs in FXServer's embedded Node 22, so a server runtime sees Node's globals (fivem-runtime.md
// §10.2): require (built-ins, then the resource's node_modules), process, Buffer, fetch and the other web globals,
// and the built-in modules as REPL-style globals. There is no module, __dirname or CommonJS `exports` (that name is
// FiveM's export proxy). Timers are FiveM's tick timers, installed separately.
import fs from 'node:fs';
import Module, { builtinModules, isBuiltin } from 'node:module';
import * as net from 'node:net';
import path from 'node:path';
import * as tls from 'node:tls';

interface ModuleInternals {
  filename: string;
  paths: string[];
  exports: { require?: NodeJS.Require };
  _compile(content: string, filename: string): void;
}
type ModuleClass = (new (id: string) => ModuleInternals) & { _nodeModulePaths(from: string): string[] };

/**
 * The sockets a server's Node code opened (net, tls: ioredis's connections to Redis), so they die with the server
 * process: a crash (sim.kill) or a stop tears the runtime down, as FXServer's process takes its sockets with it, and
 * a socket opened afterwards (a reconnection timer that was still pending) fails at once. Without it a killed
 * server's Redis client would live on in the test's process and keep writing as the dead server.
 */
class SocketsOfServer {
  private readonly open = new Set<net.Socket>();
  private gone = false;
  readonly net = this.tracked(net, ['connect', 'createConnection']);
  readonly tls = this.tracked(tls, ['connect']);

  /** The module a require of `id` gets instead of Node's own, if it is one that opens sockets. */
  module(id: string): unknown {
    const name = id.replace(/^node:/, '');
    return name === 'net' ? this.net : name === 'tls' ? this.tls : undefined;
  }

  close(): void {
    this.gone = true;
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  private tracked<M extends object>(real: M, opening: readonly string[]): M {
    return new Proxy(real, {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !opening.includes(key) || typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          this.gone ? this.refused() : this.track((value as (...a: unknown[]) => net.Socket).apply(target, args));
      },
    });
  }

  /** A socket that never connects: the process that asked for it is gone. */
  private refused(): net.Socket {
    const socket = new net.Socket();
    process.nextTick(() => socket.destroy(new Error('the server process is gone')));
    return socket;
  }

  private track(socket: net.Socket): net.Socket {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    return socket;
  }
}

/**
 * Which server's sockets a loaded module's `require('net')` gets, by the module's file (each server of the simulator
 * loads its own copy of a file, from its own resource folder). Node's require is patched once for the whole process,
 * and only for the files listed here.
 */
const socketsOfFile = new Map<string, SocketsOfServer>();
function trackRequiresOf(file: string, sockets: SocketsOfServer): void {
  if (socketsOfFile.size === 0 && !patchedRequire) {
    patchedRequire = true;
    const original = (Module.prototype as unknown as { require: (id: string) => unknown }).require;
    (Module.prototype as unknown as { require: (id: string) => unknown }).require = function require(
      this: { filename?: string },
      id: string,
    ) {
      const tracked = this.filename === undefined ? undefined : socketsOfFile.get(this.filename)?.module(id);
      return tracked ?? original.call(this, id);
    };
  }
  socketsOfFile.set(file, sockets);
}
let patchedRequire = false;

/**
 * The global `require` of a server script, made the way FXServer makes it (citizenfx/fivem at 06d4d348c,
 * code/components/citizen-scripting-node/include/JavaScriptEnvironmentCode.h): the require of a module at
 * `<resource>/dummy.js` whose search paths are `Module._nodeModulePaths(<resource>/)`. So a relative name resolves
 * from the resource's folder whichever script asks, and a package from `<resource>/node_modules` and the folders
 * above. FXServer's Node sandbox then lets a script read only paths the VFS mounts (every resource's folder,
 * `@<name>/`; NodeScriptRuntime.cpp `NodePermissionCallback`), checked on the path Node reads, i.e. after symlinks
 * are resolved: a file outside every resource folder is refused as FXServer refuses it.
 */
function fxserverRequire(
  resourceDir: string,
  mountedDirs: () => readonly string[],
  sockets: SocketsOfServer,
): NodeJS.Require {
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
    if (isBuiltin(id)) return sockets.module(id) ?? inner(id);
    const file = inner.resolve(id);
    if (!mounted(file)) {
      throw Object.assign(new Error(`Access to this API has been restricted: ${file} is outside every resource`), {
        code: 'ERR_ACCESS_DENIED',
      });
    }
    if (loaded.has(file)) return loaded.get(file);
    delete inner.cache[file];
    trackRequiresOf(file, sockets);
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
): { close(): void } {
  const sockets = new SocketsOfServer();
  const g = globalThis as unknown as Record<string, unknown>;
  for (const name of webGlobals) if (g[name] !== undefined) sandbox[name] = g[name];
  // fetch returns a promise of the script's realm, so an unhandled rejection is reported as the script's.
  const hostFetch = (hooks.fetch ?? g.fetch) as ((...args: unknown[]) => Promise<unknown>) | undefined;
  if (hostFetch) sandbox.fetch = (...args: unknown[]) => hooks.adoptPromise(hostFetch(...args));
  sandbox.process = guardedProcess(hooks.onExit);
  sandbox.require = fxserverRequire(resourceDir, hooks.mountedDirs, sockets);
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
  // The runtime ends with the server process (a crash) or its resource: so do the sockets its Node code opened.
  return { close: () => sockets.close() };
}
