import { BehaviorSubject, filter, map, type Observable, observeOn, queueScheduler, Subject } from 'rxjs';
import type { DutyChange } from '../duty-change.js';
import type { DutyState } from '../duty-state.js';
import {
  applyUpdate,
  type DutyModel,
  type DutyUpdate,
  EMPTY_DUTY_MODEL,
  type OnDutyList,
  sessionOf,
} from './duty-model.js';

/**
 * The duty model, in one BehaviorSubject: exports read its current value synchronously, `dutyChanges$` is the
 * selection of its transitions. Only the duty interpreter commits to it, one update at a time.
 */
export class DutyStore {
  private readonly model$ = new BehaviorSubject<DutyModel>(EMPTY_DUTY_MODEL);
  /**
   * Every transition, once committed. Through the queue scheduler's trampoline: a change an effect causes at once (an
   * integration taking another player off duty) is announced after every effect has heard of the current one, so
   * each effect sees the changes in the order they happened; still synchronous from the outside (at resource stop it
   * all runs now).
   */
  readonly dutyChanges$: Observable<DutyChange>;

  constructor() {
    // One subscription for the store's life, so every effect hears each change in the same turn of the trampoline,
    // in the order they subscribed.
    const changes = new Subject<DutyChange>();
    this.model$
      .pipe(
        filter((model) => model.change !== null),
        observeOn(queueScheduler),
        map((model) => model.change as DutyChange),
      )
      .subscribe(changes);
    this.dutyChanges$ = changes.asObservable();
  }

  get model(): DutyModel {
    return this.model$.getValue();
  }

  state(src: number): DutyState {
    return sessionOf(this.model, src);
  }

  /** The same array until a duty changes (never modified: a change makes a new one). */
  onDutyPlayers(): OnDutyList {
    return this.model.onDuty;
  }

  /**
   * Commits one update of a decision. `after` is the model the decision computed after it, from `base`; when the
   * store still holds `base` that is the new model, else (an effect of an earlier step committed another account's
   * decision meanwhile) the update is applied to what the store holds. Returns the model it holds now.
   */
  commit(update: DutyUpdate, after: DutyModel, base: DutyModel): DutyModel {
    const current = this.model$.getValue();
    const next = current === base ? after : applyUpdate(current, update);
    this.model$.next(next);
    return next;
  }
}
