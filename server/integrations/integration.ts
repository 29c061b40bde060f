import type { DutyEndReason } from '../../shared/events.js';

/** A player's duty after the bridge changed it, as integrations receive it. */
export interface DutyChange {
  src: number;
  onDuty: boolean;
  departmentId: number | null;
  departmentSlug: string | null;
  rankId: number | null;
  /** Why the player went off duty; absent when going on duty. */
  reason?: DutyEndReason;
}

/**
 * What integrations may do in FXServer: look at other resources, call their exports, and use local server
 * events. The FiveM adapter implements it; tests use stub resources in the simulator or a fake.
 */
export interface ResourcePort {
  /** `GetResourceState`: 'started', 'stopped', 'missing', ... */
  resourceState(name: string): string;
  /**
   * Whether `exports[resource][name]` exists right now. In FiveM reading the property is the lookup, and it throws
   * `No such export` when nothing answers: `try { return typeof exports[resource][name] === 'function' } catch { return false }`.
   */
  hasExport(resource: string, name: string): boolean;
  /** `exports[resource][name](...args)`; throws as FiveM does when the export is missing or fails. */
  callExport(resource: string, name: string, ...args: unknown[]): unknown;
  emitLocal(event: string, ...args: unknown[]): void;
  /** A net event to one player's client (`emitNet(event, src, ...args)`). */
  emitClient(event: string, src: number, ...args: unknown[]): void;
  /** A value of the global state bag (`GlobalState[key]`), where ox_core publishes its groups. */
  globalState(key: string): unknown;
  /** Listens to a local server event (`on`, never `onNet`); the handler receives the event's arguments. */
  onLocal(event: string, handler: (...args: unknown[]) => void): void;
}

/** Asks the bridge to change a player's duty, for integrations that pass changes back (rcore_police). */
export interface DutyControl {
  isOnDuty(src: number): boolean;
  takeOffDuty(src: number, reason: DutyEndReason): void;
}

/** One integration: told every duty change the bridge makes; never throws into the bridge. */
export interface Integration {
  readonly name: string;
  dutyChanged(change: DutyChange): void;
  /** Every integration has heard of the change (what depends on what the others did then, runs now). */
  settled?(change: DutyChange): void;
  /** The player left; forget what is kept about them (called after the drop's own duty change, if any). */
  playerDropped?(src: number): void;
  /** Entries held per player, by where they are held: all zero once everyone has left and their calls ended. */
  footprint?(): Record<string, number>;
}
