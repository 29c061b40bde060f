// A script runtime (ScRT): one per language per resource per side (fivem-runtime.md §0). The host routes events,
// reference calls and ticks to runtimes only through this interface, always as msgpack bytes.
import type { ResourceInstance } from './resource.js';

export interface Runtime {
  readonly kind: 'js' | 'lua' | 'host';
  /** Unique per simulator; part of every canonical function reference this runtime makes. */
  readonly instanceId: number;
  readonly resource: ResourceInstance;
  readonly alive: boolean;
  /** Runs this runtime's handlers for one event (the runtime filters by its own listeners and net-safe set). */
  dispatchEvent(name: string, payload: Uint8Array, source: string): void;
  /** Calls one of this runtime's function references; returns the packed result list, or packed nil on error. */
  callRef(refIndex: number, args: Uint8Array): Uint8Array;
  duplicateRef(refIndex: number): void;
  deleteRef(refIndex: number): void;
  /** One frame of timers, ticks and threads. */
  tick(now: number): void;
  /** The earliest time this runtime has work (Infinity when idle). */
  nextWake(): number;
  destroy(): void;
}

let nextInstanceId = 1;
export function newInstanceId(): number {
  return nextInstanceId++;
}

/** FXServer's canonical reference string: `<resource>:<runtime instance>:<reference index>`. */
export function canonicalRef(resource: string, instanceId: number, index: number): string {
  return `${resource}:${instanceId}:${index}`;
}

export function parseRef(ref: string): { resource: string; instanceId: number; index: number } | null {
  const match = /^(.*):(\d+):(\d+)$/.exec(ref);
  if (!match) return null;
  return { resource: match[1] ?? '', instanceId: Number(match[2]), index: Number(match[3]) };
}

/** A runtime's reference table, refcounted like FXServer's (created at 0, +1 per unpack, -1 per collection). */
export class RefTable<T> {
  private readonly entries = new Map<number, { value: T; count: number }>();
  private next = 0;

  add(value: T): number {
    const index = this.next++;
    this.entries.set(index, { value, count: 0 });
    return index;
  }

  get(index: number): T | undefined {
    return this.entries.get(index)?.value;
  }

  duplicate(index: number): void {
    const entry = this.entries.get(index);
    if (entry) entry.count++;
  }

  /** Returns the value when its last holder let go, so the owner can release it. */
  release(index: number): T | undefined {
    const entry = this.entries.get(index);
    if (!entry) return undefined;
    if (--entry.count > 0) return undefined;
    this.entries.delete(index);
    return entry.value;
  }

  /** Drops the value if nobody ever took it or everyone let go of it. */
  releaseUnheld(index: number): void {
    if (this.entries.get(index)?.count === 0) this.entries.delete(index);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
