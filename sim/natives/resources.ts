// Resource, event and file natives (fivem-runtime.md §1.3, §3.3).

import fs from 'node:fs';
import path from 'node:path';
import type { Host, HostWorld } from '../host/host.js';
import { startResource, stopResource } from '../host/lifecycle.js';
import { expandGlob, hasGlob } from '../manifest/glob.js';
import { int, optStr, str } from './args.js';
import { defineNatives, type NativeContext } from './registry.js';

function resourceState(ctx: NativeContext, name: string): string {
  const instance = ctx.host.resources.get(name);
  if (instance) return instance.state;
  if (ctx.host.side === 'server' && ctx.host.world.defs.has(name)) return 'stopped';
  return 'missing';
}

/** A path inside the resource folder, or null for absolute paths and `..` escaping it. */
function insideResource(dir: string, file: string): string | null {
  if (path.isAbsolute(file) || /^[a-zA-Z]:/.test(file)) return null;
  const root = path.resolve(dir);
  const full = path.resolve(root, file);
  return full === root || full.startsWith(root + path.sep) ? full : null;
}

/** On a client only downloaded files can be read: its scripts and `files {}` entries. */
function clientMayRead(world: HostWorld, host: Host, resource: string, file: string): boolean {
  const instance = world.server.resources.get(resource) ?? host.resources.get(resource);
  const dir = world.defs.get(resource)?.dir;
  if (!instance || !dir) return false;
  const wanted = file.replace(/\\/g, '/').replace(/^\.\//, '');
  for (const key of ['client_script', 'shared_script', 'file']) {
    for (const pattern of instance.metadata(key)) {
      if (pattern.startsWith('@')) continue;
      if (hasGlob(pattern) ? expandGlob(dir, pattern).includes(wanted) : pattern.replace(/^\.\//, '') === wanted)
        return true;
    }
  }
  return false;
}

function joaat(text: string): number {
  let hash = 0;
  for (const byte of Buffer.from(text.toLowerCase())) {
    hash = (hash + byte) >>> 0;
    hash = (hash + (hash << 10)) >>> 0;
    hash = (hash ^ (hash >>> 6)) >>> 0;
  }
  hash = (hash + (hash << 3)) >>> 0;
  hash = (hash ^ (hash >>> 11)) >>> 0;
  hash = (hash + (hash << 15)) >>> 0;
  return hash | 0;
}

defineNatives('shared', {
  GetCurrentResourceName: (ctx) => ctx.resource,
  GetInvokingResource: (ctx) => ctx.host.invokingResource(ctx.runtime),
  GetResourceState: (ctx, ...a) => resourceState(ctx, str(a, 0)),
  IsDuplicityVersion: (ctx) => ctx.host.side === 'server',
  GetGameTimer: (ctx) => ctx.host.world.clock.now() - ctx.host.world.startedAt,
  GetGameName: (ctx) => (ctx.host.side === 'server' ? 'fxserver' : 'fivem'),
  GetHashKey: (_ctx, ...a) => joaat(str(a, 0)),
  RegisterResourceAsEventHandler: (ctx, ...a) => {
    ctx.host.subscribe(ctx.runtime.resource, str(a, 0));
  },
  CancelEvent: (ctx) => {
    ctx.host.cancelEvent();
  },
  WasEventCanceled: (ctx) => ctx.host.wasEventCanceled(),
  GetNumResources: (ctx) => [...ctx.host.world.defs.keys()].length,
  GetResourceByFindIndex: (ctx, ...a) => [...ctx.host.world.defs.keys()][int(a, 0)] ?? null,
  GetNumResourceMetadata: (ctx, ...a) => {
    const instance = ctx.host.world.server.resources.get(str(a, 0));
    return instance ? instance.metadata(str(a, 1)).length : 0;
  },
  GetResourceMetadata: (ctx, ...a) => {
    const instance = ctx.host.world.server.resources.get(str(a, 0));
    return instance?.metadata(str(a, 1))[int(a, 2)] ?? null;
  },
  LoadResourceFile: (ctx, ...a) => {
    const world = ctx.host.world;
    const resource = str(a, 0);
    const file = str(a, 1);
    const dir = world.defs.get(resource)?.dir;
    if (!dir) return null;
    const full = insideResource(dir, file);
    if (!full) return null;
    const relative = path.relative(path.resolve(dir), full).split(path.sep).join('/');
    if (ctx.host.side === 'client' && !clientMayRead(world, ctx.host, resource, relative)) return null;
    const saved = world.savedFiles.get(`${resource}/${relative}`);
    if (saved !== undefined) return saved;
    try {
      return fs.readFileSync(full, 'utf8');
    } catch {
      return null;
    }
  },
});

defineNatives('server', {
  GetResourcePath: (ctx, ...a) => {
    const dir = ctx.host.world.defs.get(str(a, 0))?.dir;
    return dir ? path.resolve(dir) : null;
  },
  /** Writes go to an in-memory overlay (LoadResourceFile reads it first), never into the resource folder. */
  SaveResourceFile: (ctx, ...a) => {
    const world = ctx.host.world;
    const resource = str(a, 0);
    const file = str(a, 1);
    const data = optStr(a, 2) ?? '';
    const length = int(a, 3);
    const dir = world.defs.get(resource)?.dir;
    if (!dir) return null;
    // The 2026 sandbox: a resource may only write into itself.
    if (resource !== ctx.resource) return false;
    const full = insideResource(dir, file);
    if (!full) return false;
    const relative = path.relative(path.resolve(dir), full).split(path.sep).join('/');
    world.savedFiles.set(`${resource}/${relative}`, length > 0 ? data.slice(0, length) : data);
    return true;
  },
  StartResource: (ctx, ...a) => startResource(ctx.host.world, ctx.host, str(a, 0)),
  StopResource: (ctx, ...a) => stopResource(ctx.host.world, ctx.host, str(a, 0)),
});
