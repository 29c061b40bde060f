import {
  catchError,
  defer,
  distinctUntilChanged,
  filter,
  from,
  map,
  merge,
  mergeMap,
  type Observable,
  of,
  Subject,
  type Subscription,
  startWith,
} from 'rxjs';
import type { DutyEndReason, DutyOutcome } from '../../shared/events.js';
import { abandonableWait, concatMapPerKey } from '../kernel/index.js';
import type { Drop, Duty, DutyIntent, DutyRequest, SubmittedIntent } from './duty.js';
import { DutyInterpreter, type DutyInterpreterOptions, DutyStore, type HeldShiftEnd } from './duty-interpreter.js';
import type { DutyChange, DutyState } from './duty-model.js';

export interface DutyServiceOptions extends DutyInterpreterOptions {
  /** Where the duty model is held; given when something must read it before the service exists. */
  store?: DutyStore;
}

/** The outcome of a handled intent, correlated with it by the id it was submitted with. */
export interface IntentOutcome {
  id: number;
  outcome: DutyOutcome;
}

/** What the duty service holds about players right now; all zero once everyone has left. */
export type DutyFootprint = {
  /** Chat accounts (or server ids without one) with intents queued or running. */
  lanes: number;
  states: number;
  holders: number;
  leaving: number;
  /** Shifts held for players whose game crashed (Config.ResumeWindowMs): zero once each came back or lapsed. */
  held: number;
};

const NO_DEPARTMENT: DutyOutcome = { ok: false, error: 'no_department_selected', message: 'select a department first' };
const INTERNAL_ERROR: DutyOutcome = { ok: false, error: 'invalid_request', message: 'internal error' };

/**
 * Duty of every player: intents in, outcomes and changes out. The intents (submitted ones, and the panel's refusals
 * of `on`s the game had applied) are one stream, handled by the duty interpreter (the rules are `decide`'s) one at a time per chat account, so
 * double or concurrent requests can never produce two `on` calls or an interleaving, and a session that reconnects
 * waits behind the calls its ghost still has running; accounts do not wait for each other. Each handled intent
 * emits its outcome with the intent's id, which hands it to the caller waiting for that id, if any. Each
 * transition is committed to the duty store's model, then announced on `dutyChanges$`, which every effect subscribes to.
 */
export class DutyService implements Duty {
  private readonly submitted = new Subject<SubmittedIntent>();
  /** Callers waiting for an outcome, by intent id: one entry per request rather than a filter over an outcome
   * stream built per request (its operators were a good part of what a duty toggle allocated). */
  private readonly waiting = new Map<number, (outcome: DutyOutcome) => void>();
  private readonly store: DutyStore;
  private readonly interpreter: DutyInterpreter;
  /** Every transition of a player's duty, in the order they happen; the effects subscribe to it. */
  readonly dutyChanges$: Observable<DutyChange>;
  /** Each held shift that ended without its player coming back, its `off` kept in the outbox. */
  readonly heldEnded$: Observable<HeldShiftEnd>;
  private readonly lanes = { open: 0 };
  private nextIntentId = 1;
  private readonly subscription: Subscription;

  constructor(private readonly options: DutyServiceOptions) {
    this.store = options.store ?? new DutyStore();
    this.interpreter = new DutyInterpreter(options, this.store);
    this.dutyChanges$ = this.store.dutyChanges$;
    this.heldEnded$ = this.interpreter.heldEnded$;
    // The panel refusing an `on` the game applied comes back as an intent, in the account's lane like any other.
    const refusedAppliedOns$ = this.interpreter.appliedOns$.pipe(
      mergeMap(({ delivery, ...applied }) =>
        from(delivery).pipe(
          filter((result) => result.kind === 'refused'),
          map((result) => this.identified({ kind: 'queuedOnRefused', ...applied, failure: result.failure })),
        ),
      ),
    );
    // A held shift's window runs out on the monotonic clock: its end comes back as an intent of the account's lane.
    const lapsed$ = this.interpreter.lapses$.pipe(
      mergeMap(({ chatId, src, ms }) =>
        abandonableWait(options.sleep, ms).pipe(map(() => this.identified({ kind: 'heldLapsed', chatId, src }))),
      ),
    );
    this.subscription = merge(this.submitted, refusedAppliedOns$, lapsed$)
      .pipe(
        concatMapPerKey(
          ({ intent }) => ('chatId' in intent ? intent.chatId : this.accountOf(intent.src)),
          ({ id, intent }) =>
            defer(() => this.interpreter.handle(intent)).pipe(
              map((outcome): IntentOutcome => ({ id, outcome })),
              catchError((error: unknown) => {
                options.logger.error(`duty ${intent.kind} of player ${intent.src} failed: ${String(error)}`);
                return of({ id, outcome: INTERNAL_ERROR });
              }),
            ),
          this.lanes,
        ),
      )
      .subscribe(({ id, outcome }) => {
        const resolve = this.waiting.get(id);
        if (!resolve) return;
        this.waiting.delete(id);
        resolve(outcome);
      });
  }

  submit(intent: DutyIntent): void {
    this.submitted.next(this.identified(intent));
  }

  /** Submits and waits for the outcome: the one handed over with this intent's id. */
  request(request: DutyRequest): Promise<DutyOutcome> {
    const intent = intentOf(request);
    if (!intent) return Promise.resolve(NO_DEPARTMENT);
    const submitted = this.identified(intent);
    const outcome = new Promise<DutyOutcome>((resolve) => this.waiting.set(submitted.id, resolve));
    this.submitted.next(submitted);
    return outcome;
  }

  state(src: number): DutyState {
    return this.store.state(src);
  }

  /** A player's duty: the current one, then each change, as the effects hear of them. */
  dutyState$(src: number): Observable<DutyState> {
    return defer(() =>
      this.dutyChanges$.pipe(
        filter((change) => change.src === src),
        map((change) => change.next),
        startWith(this.store.state(src)),
        distinctUntilChanged(),
      ),
    );
  }

  /** The same array until a duty changes (never modified: a change makes a new one). */
  onDutyPlayers(): ReadonlyArray<readonly [number, DutyState]> {
    return this.store.onDutyPlayers();
  }

  /**
   * Takes a player off duty at once, without waiting in their queue: for a resource that is stopping, where no
   * asynchronous work will complete. The `off` call is persisted and sent by the next start if need be.
   */
  forceOffNow(src: number, reason: DutyEndReason): void {
    this.interpreter.forceOffNow(src, reason);
  }

  /**
   * A session dropped: a call of theirs still waiting for the panel is given up at once and their duty ends.
   * Resolves once that is done. The session stays marked as leaving until `forget`, which the caller runs once the
   * player is gone from everywhere else: until then a request for it (an export, a late net event) is refused
   * instead of putting a player who left on duty.
   */
  async leave(src: number, { reason = 'dropped', resumable = false }: Drop = {}): Promise<void> {
    this.interpreter.leave(src);
    await this.request({ kind: 'off', src, reason, resumable });
  }

  /**
   * The server is going away (txAdmin's shutdown, the resource stopping): every duty ends at once, outside the
   * lanes, and so does every held shift; their `off` calls are kept in the outbox.
   */
  endAll(reason: DutyEndReason): void {
    for (const [src] of this.store.onDutyPlayers()) this.interpreter.forceOffNow(src, reason);
    this.interpreter.endHeldShifts();
  }

  forget(src: number): void {
    this.interpreter.forget(src);
  }

  footprint(): DutyFootprint {
    return { lanes: this.lanes.open, ...this.interpreter.footprint() };
  }

  stop(): void {
    this.subscription.unsubscribe();
  }

  private identified(intent: DutyIntent): SubmittedIntent {
    return { id: this.nextIntentId++, intent };
  }

  /** A player without a chat account cannot go on duty; their intents get a lane of their own. */
  private accountOf(src: number): string {
    return this.options.player(src)?.chatId ?? `server id ${src}`;
  }
}

/** The intent of a request, or none when it asks to go on duty without a department. */
function intentOf(request: DutyRequest): DutyIntent | undefined {
  if (request.kind === 'off') return request;
  const { src, departmentId } = request;
  return departmentId === null ? undefined : { kind: 'on', src, departmentId };
}
