import type { Observable, Subscription } from 'rxjs';
import { eachGuarded, type Logger } from '../../kernel/index.js';
import type { DutyChange } from '../duty-change.js';

/** Something that follows every duty change: an event, a state bag, a record, an integration. */
export type DutyEffect = (changes$: Observable<DutyChange>) => Subscription;

/**
 * An effect made of a function run for each change. One that throws is logged and stays subscribed: a broken
 * listener never stops the others, nor the change itself, which has already happened. It runs synchronously, so
 * the effects keep the order they were subscribed in (the crash record goes first).
 */
export const dutyEffect =
  (name: string, logger: Logger, effect: (change: DutyChange) => void): DutyEffect =>
  (changes$) =>
    eachGuarded(changes$, (change) => `the ${name} of player ${change.src}'s duty change`, logger, effect);
