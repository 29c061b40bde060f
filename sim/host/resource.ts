// A resource as one side sees it: its manifest, state and runtimes, plus the events it subscribed to.
import type { Manifest } from '../manifest/manifest.js';
import type { Runtime } from './runtime.js';

export type ResourceState = 'uninitialized' | 'starting' | 'started' | 'stopping' | 'stopped';

/** A resource folder known to the simulator. The manifest is re-read on every start, as FXServer does. */
export interface ResourceDef {
  readonly name: string;
  readonly dir: string;
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
