// Starting and stopping a resource on one side (fivem-runtime.md §3): onResourceStarting (cancelable), one runtime
// per language, every shared_script then the side's scripts in manifest order, onResourceStart at once,
// on<Side>ResourceStart on the next frame; stopping runs onResourceStop before the runtimes go and queues
// on<Side>ResourceStop. A script that fails to load is reported and the resource still starts. The server tells
// each client to follow on that client's next frame.
import fs from 'node:fs';
import path from 'node:path';
import { pack } from '../codec/msgpack.js';
import { JsRuntime } from '../js/js-runtime.js';
import { LuaRuntime } from '../lua/lua-runtime.js';
import { ManifestError, readManifest, scriptsFor } from '../manifest/manifest.js';
import type { Host, HostWorld } from './host.js';
import { ResourceInstance, type Runtime } from './resource.js';

function sideName(host: Host): string {
  return host.side === 'server' ? 'Server' : 'Client';
}

function readScript(resource: ResourceInstance, absolute: string): Buffer | null {
  if (!resource.files.has(absolute)) {
    resource.files.set(absolute, fs.existsSync(absolute) ? fs.readFileSync(absolute) : null);
  }
  return resource.files.get(absolute) ?? null;
}

export function startResource(
  world: HostWorld,
  host: Host,
  name: string,
  chain: ReadonlySet<string> = new Set(),
): boolean {
  const existing = host.resources.get(name);
  if (existing && (existing.state === 'started' || existing.state === 'starting')) return true;
  const def = world.defs.get(name);
  if (!def) {
    world.log.print(host.side, host.playerId, null, 'error', `Couldn't find resource ${name}.`);
    return false;
  }
  const resource = existing ?? new ResourceInstance(def);
  if (host.side === 'server') {
    try {
      resource.manifest = readManifest(world.lua.module(), def.dir, name);
    } catch (e) {
      const message = e instanceof ManifestError || e instanceof Error ? e.message : String(e);
      world.log.error('server', null, name, 'manifest', `Couldn't load resource ${name}: ${message}`);
      return false;
    }
    resource.files = new Map();
    for (const dep of resource.metadata('dependency')) {
      // `/server:12913`, `/onesync` and the like are constraints on the server build: satisfied here.
      if (dep.startsWith('/') || chain.has(dep)) continue;
      if (!startResource(world, host, dep, new Set([...chain, name]))) {
        world.log.print(
          'server',
          null,
          null,
          'error',
          `Couldn't start resource ${name}: dependency ${dep} could not be started.`,
        );
        return false;
      }
    }
  } else {
    const onServer = world.server.resources.get(name);
    if (!onServer?.manifest) return false;
    resource.manifest = onServer.manifest;
    resource.files = onServer.files;
  }
  host.resources.set(name, resource);

  host.triggerEvent('onResourceStarting', pack([name], null), '', { sender: '__cfx_internal' });
  if (host.wasEventCanceled()) {
    world.log.print(
      host.side,
      host.playerId,
      null,
      'warn',
      `Couldn't start resource ${name}: onResourceStarting was canceled.`,
    );
    if (!existing) host.resources.delete(name);
    return false;
  }

  resource.state = 'starting';
  const manifest = resource.manifest;
  const scripts = manifest ? scriptsFor(manifest, def.dir, host.side, (n) => world.defs.get(n)?.dir ?? null) : [];
  let js: JsRuntime | null = null;
  let lua: LuaRuntime | null = null;
  const runtimes: Runtime[] = [];
  for (const script of scripts) {
    if (script.relative.endsWith('.js') && !js) {
      js = new JsRuntime(host, resource);
      runtimes.push(js);
    } else if (script.relative.endsWith('.lua') && !lua) {
      lua = new LuaRuntime(host, resource, world.lua.module());
      runtimes.push(lua);
    }
  }
  resource.runtimes = runtimes;
  for (const runtime of runtimes) host.addRuntime(runtime);

  for (const script of scripts) {
    const code = readScript(resource, path.join(script.dir, script.relative));
    const runtime = script.relative.endsWith('.js') ? js : script.relative.endsWith('.lua') ? lua : null;
    if (!runtime) continue;
    if (code === null) {
      host.scriptLoadError(name, script.file, 'load', 'could not open file');
      continue;
    }
    if (runtime instanceof JsRuntime) runtime.loadScript(script.file, code.toString('utf8'));
    else runtime.loadScript(script.file, code);
  }

  resource.state = 'started';
  host.triggerEvent('onResourceStart', pack([name], null), '', { sender: '__cfx_internal' });
  host.queueEvent(`on${sideName(host)}ResourceStart`, pack([name], null), '', { sender: '__cfx_internal' });

  if (host.side === 'server') {
    world.startOrder = [...world.startOrder.filter((n) => n !== name), name];
    for (const client of world.clients.values()) client.queueTask(() => startResource(world, client, name));
  }
  return true;
}

export function stopResource(world: HostWorld, host: Host, name: string): boolean {
  const resource = host.resources.get(name);
  if (resource?.state !== 'started') return false;
  resource.state = 'stopping';
  host.triggerEvent('onResourceStop', pack([name], null), '', { sender: '__cfx_internal' });
  for (const runtime of resource.runtimes) {
    runtime.destroy();
    host.removeRuntime(runtime);
  }
  resource.runtimes = [];
  host.unsubscribeAll(resource);
  host.commands.unregisterOwner(name);
  host.stateBags.removeHandlersOf(name);
  if (host.side === 'server') {
    world.convars.removeListenersOf(name);
    world.http.remove(name);
  }
  resource.state = 'stopped';
  host.queueEvent(`on${sideName(host)}ResourceStop`, pack([name], null), '', { sender: '__cfx_internal' });
  if (host.side === 'server') {
    world.startOrder = world.startOrder.filter((n) => n !== name);
    for (const client of world.clients.values()) client.queueTask(() => stopResource(world, client, name));
  }
  return true;
}
