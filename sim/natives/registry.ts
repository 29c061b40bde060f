// The natives the simulator emulates, by name and side. Scripts of both languages call the same functions; a
// native that exists in FiveM but is not emulated throws an error naming it (never a silent no-op), and the
// names come from the @citizenfx typings so `typeof SomeNative === 'function'` holds as in the game.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Host } from '../host/host.js';
import type { Side } from '../host/log.js';
import type { Runtime } from '../host/resource.js';

export interface NativeContext {
  readonly host: Host;
  readonly runtime: Runtime;
  /** The calling runtime's resource (GetCurrentResourceName). */
  readonly resource: string;
}

export type NativeImpl = (ctx: NativeContext, ...args: unknown[]) => unknown;

export interface NativeDef {
  readonly name: string;
  readonly side: Side | 'shared';
  readonly impl: NativeImpl;
}

const defs = new Map<string, NativeDef[]>();

export function defineNatives(side: NativeDef['side'], impls: Record<string, NativeImpl>): void {
  for (const [name, impl] of Object.entries(impls)) {
    const list = defs.get(name) ?? [];
    list.push({ name, side, impl });
    defs.set(name, list);
  }
}

export function nativeFor(side: Side, name: string): NativeDef | undefined {
  return defs.get(name)?.find((d) => d.side === side || d.side === 'shared');
}

export function emulatedNatives(side: Side): NativeDef[] {
  const out: NativeDef[] = [];
  for (const list of defs.values()) {
    const def = list.find((d) => d.side === side || d.side === 'shared');
    if (def) out.push(def);
  }
  return out;
}

const known: Record<Side, Set<string> | null> = { server: null, client: null };

/** Every native name FiveM has on that side, read once from the @citizenfx typings. */
export function knownNatives(side: Side): Set<string> {
  const cached = known[side];
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const pkg = side === 'server' ? '@citizenfx/server' : '@citizenfx/client';
  const file = side === 'server' ? 'natives_server.d.ts' : 'natives_universal.d.ts';
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const names = new Set<string>();
  for (const m of text.matchAll(/^declare function (\w+)\(/gm)) if (m[1]) names.add(m[1]);
  known[side] = names;
  return names;
}

export class NotEmulatedError extends Error {}

export function notEmulated(side: Side, name: string): Error {
  return new NotEmulatedError(`native ${name} is not emulated by the simulator (${side})`);
}
