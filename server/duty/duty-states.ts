import type { DutyChange } from './duty-change.js';
import { type DutyState, OFF_DUTY } from './duty-state.js';

/**
 * Every player's current duty: the duty changes folded into a map, read synchronously (exports answer from it at
 * once). A change is applied before it is announced, so whatever hears of it reads the state it describes.
 */
export class DutyStates {
  private readonly states = new Map<number, DutyState>();
  /** The players on duty, kept until a duty changes: exports list them far more often than duties change. */
  private onDuty: ReadonlyArray<readonly [number, DutyState]> | undefined;

  get(src: number): DutyState {
    return this.states.get(src) ?? OFF_DUTY;
  }

  apply({ src, next }: DutyChange): void {
    this.states.set(src, next);
    this.onDuty = undefined;
  }

  /** The same array until a duty changes (never modified: a change makes a new one). */
  onDutyPlayers(): ReadonlyArray<readonly [number, DutyState]> {
    this.onDuty ??= [...this.states.entries()].filter(([, state]) => state.onDuty);
    return this.onDuty;
  }

  forget(src: number): void {
    if (this.states.delete(src)) this.onDuty = undefined;
  }

  get size(): number {
    return this.states.size;
  }
}
