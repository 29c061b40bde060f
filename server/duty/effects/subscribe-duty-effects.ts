import { type Observable, Subscription } from 'rxjs';
import type { DutyChange } from '../duty-change.js';
import type { DutyEffect } from './duty-effect.js';

/**
 * Subscribes the effects of duty changes. The crash record is subscribed first, and a Subject calls its observers in
 * the order they subscribed, so the record of a duty is in KVP before any event, state bag or integration tells the
 * world about it: a crash right after can never leave a duty that was announced but not recorded. The others hear
 * of each change in the order given.
 */
export function subscribeDutyEffects(
  changes$: Observable<DutyChange>,
  crashRecord: DutyEffect,
  effects: readonly DutyEffect[],
): Subscription {
  const subscription = new Subscription();
  subscription.add(crashRecord(changes$));
  for (const effect of effects) subscription.add(effect(changes$));
  return subscription;
}
