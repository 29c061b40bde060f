// A resource as one side sees it: its manifest, state and runtimes, plus the events it subscribed to.
import type { Manifest } from '../manifest/manifest.js';

export type ResourceState = 'uninitialized' | 'starting' | 'started' | 'stopping' | 'stopped';

/** A resource folder known to the simulator. The manifest is re-read on every start, as FXServer does. */
export interface ResourceDef {
  readonly name: string;
  readonly dir: string;
}

/**
 * A script runtime (ScRT): one per language per resource per side (fivem-runtime.md §0). The host routes events,
 * reference calls and ticks to runtimes only through this interface, always as msgpack bytes.
 */
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

export class ResourceInstance {
  state: ResourceState = 'stopped';
  runtimes: Runtime[] = [];
  manifest: Manifest | null = null;
  /** Event names this resource subscribed to (RegisterResourceAsEventHandler). */
  readonly subscriptions = new Set<string>();
  /** Script files read at start, shared by every client that loads this start of the resource. */
  files = new Map<string, Buffer | null>();

  constructor(
    readonly def: ResourceDef,
    /** Hidden resources (the simulator's own test runtime) are not listed to scripts. */
    readonly hidden = false,
  ) {}

  get name(): string {
    return this.def.name;
  }

  /** Whether events reach it: while starting (scripts loading), started, and stopping (onResourceStop). */
  get receivesEvents(): boolean {
    return this.state === 'started' || this.state === 'starting' || this.state === 'stopping';
  }

  metadata(key: string): readonly string[] {
    return this.manifest?.metadata.get(key) ?? [];
  }
}
