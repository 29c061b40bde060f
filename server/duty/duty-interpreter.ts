import {
  BehaviorSubject,
  concatMap,
  filter,
  from,
  map,
  type Observable,
  observeOn,
  of,
  queueScheduler,
  Subject,
} from 'rxjs';
import type { DegradedMode } from '../../shared/config/index.js';
import type { DutyEndReason, DutyOutcome } from '../../shared/events.js';
import type { Logger } from '../kernel/index.js';
import { abandonableWait } from '../kernel/index.js';
import type { ProfileEntry } from '../profiles/index.js';
import { type DecideContext, type DecideInput, type Decision, type DutyPlayer, decide } from './decide.js';
import type { DutyIntent } from './duty.js';
import type { DeliveryResult, SentCall } from './duty-call.js';
import { type PanelAnswer, panelAnswer } from './duty-call.js';
import {
  applyUpdate,
  type DutyChange,
  type DutyModel,
  type DutyState,
  type DutyUpdate,
  EMPTY_DUTY_MODEL,
  type OnDutyList,
  sessionOf,
} from './duty-model.js';
import type { Outbox } from './outbox.js';

export type { DutyPlayer } from './decide.js';

/** Whether the panel answers, from the circuit breaker. */
export interface PanelStatus {
  readonly isOpen: boolean;
  /** Emits when the panel stops answering. */
  readonly unreachable$: Observable<void>;
}

export interface DutyInterpreterOptions {
  outbox: Pick<Outbox, 'enqueue' | 'withdraw' | 'markApplied'>;
  /** Without it the panel is taken to answer. */
  panel?: PanelStatus;
  /** config.lua's DegradedMode: what going on duty does while the panel is unreachable. */
  degradedMode?: DegradedMode;
  logger: Logger;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** How long a player waits for the panel to accept going on duty before the request is given up. */
  onDutyWaitMs: number;
  /** config.lua's ResumeWindowMs: how long a shift is held after its game crashed or timed out (0: not at all). */
  resumeWindowMs?: number;
  player: (src: number) => DutyPlayer | undefined;
  /**
   * The profile the server fetched itself (fresh or, when the panel is unreachable, the last one known);
   * `refetch` bypasses the cache.
   */
  profile: (src: number, refetch: boolean) => Promise<ProfileEntry | undefined>;
  /**
   * The newest profile the bridge holds for the player, without fetching. A check of the duty against a profile runs
   * against this one: the profile the check was asked with may have waited in the account's queue behind a newer
   * fetch, and would take a rank back.
   */
  latestProfile?: (src: number) => ProfileEntry | undefined;
}

/** A held shift, as the steps of a decision tell of it: its window started (`ms`), or it ended without its session. */
export interface HeldShiftNews {
  chatId: string;
  src: number;
}

/** A held shift that ended without its session, and when that shift began. */
export type HeldShiftEnd = HeldShiftNews & { since: number | null };

/** An `on` the game applied before the panel accepted it, and how to recognise that duty if the panel refuses it. */
export interface AppliedOn {
  delivery: Promise<DeliveryResult>;
  src: number;
  departmentId: number;
  since: number;
  retried: boolean;
}

const APPLIED_IN_GAME = { appliedInGame: true } as const;

/**
 * Runs the duty decisions: asks `decide` with the model the store holds, commits its updates one by one, hands its
 * calls to the outbox in their place among them, and does the waits it asks for (a profile; the panel's answer to an
 * `on`, raced with the player leaving, the timeout and, in degraded mode `queue`, the panel becoming unreachable),
 * whose answers it gives `decide` next. The duty service runs it one intent at a time per chat account.
 */
export class DutyInterpreter {
  private readonly appliedOns = new Subject<AppliedOn>();
  /** The `on`s the game applied before the panel accepted them; a refusal of one comes back as an intent. */
  readonly appliedOns$: Observable<AppliedOn> = this.appliedOns.asObservable();
  private readonly left$ = new Subject<number>();
  private readonly lapses = new Subject<HeldShiftNews & { ms: number }>();
  /** Each shift held after its game crashed or timed out: `heldLapsed` is due `ms` later. */
  readonly lapses$: Observable<HeldShiftNews & { ms: number }> = this.lapses.asObservable();
  private readonly heldEnded = new Subject<HeldShiftEnd>();
  /** Each held shift that ended without its session coming back, once its `off` is in the outbox. */
  readonly heldEnded$: Observable<HeldShiftEnd> = this.heldEnded.asObservable();
  /** Filled in before each decision: one object, not one per decision. */
  private readonly context: DecideContext;

  constructor(
    private readonly options: DutyInterpreterOptions,
    private readonly store: DutyStore,
  ) {
    this.context = {
      now: 0,
      panelDown: false,
      degradedMode: options.degradedMode,
      resumeWindowMs: options.resumeWindowMs ?? 0,
    };
  }

  handle(intent: DutyIntent): Observable<DutyOutcome> {
    const player = this.options.player(intent.src);
    switch (intent.kind) {
      case 'on':
      case 'off':
      case 'resume':
      case 'heldElsewhere':
      case 'queuedOnRefused':
        return this.run({ ...intent, player });
      case 'takenElsewhere':
      case 'restate':
      case 'heldLapsed':
        return this.run(intent);
      case 'reconcile': {
        const { src } = intent;
        const state = this.store.state(src);
        const onDuty = state.onDuty && state.departmentId !== null;
        const profile = (onDuty ? this.options.latestProfile?.(src) : undefined) ?? intent.profile;
        return this.run({ kind: 'reconcile', src, profile, player });
      }
    }
  }

  /** See DutyService.forceOffNow. */
  forceOffNow(src: number, reason: DutyEndReason): void {
    this.perform(this.decided({ kind: 'forceOff', src, reason, player: this.options.player(src) }));
  }

  /** The session dropped: an `on` of theirs still waiting for the panel is given up at once. */
  leave(src: number): void {
    this.perform(this.decided({ kind: 'leave', src }));
    this.left$.next(src);
  }

  forget(src: number): void {
    this.perform(this.decided({ kind: 'forget', src }));
  }

  /** Every held shift ends now, its `off` kept in the outbox: the server is going away. */
  endHeldShifts(): void {
    this.perform(this.decided({ kind: 'endHeldShifts' }));
  }

  footprint(): { states: number; holders: number; leaving: number; held: number } {
    const { sessions, holders, leaving, held } = this.store.model;
    return { states: sessions.size, holders: holders.size, leaving: leaving.size, held: held.size };
  }

  private decided(input: DecideInput): Decision {
    const { context } = this;
    context.now = this.options.now();
    context.panelDown = this.options.panel?.isOpen ?? false;
    return decide(this.store.model, input, context);
  }

  private run(input: DecideInput): Observable<DutyOutcome> {
    const base = this.store.model;
    const decision = this.decided(input);
    const sent = this.perform(decision, base);
    const { wait } = decision;
    if (!wait) return of(decision.outcome as DutyOutcome);
    if (wait.kind === 'profile') {
      const { resume } = wait;
      return from(this.options.profile(wait.src, wait.refetch)).pipe(
        concatMap((profile) => this.run({ ...resume, profile })),
      );
    }
    const awaited = sent as SentCall;
    const { resume } = wait;
    return this.answerOf(wait.src, awaited.result).pipe(
      concatMap((answer) => this.run({ ...resume, sent: awaited, answer })),
    );
  }

  /**
   * Runs a decision's steps in their order. Returns the call it waits for, if it sent one to wait for.
   * `base`: the model the decision was made from.
   */
  private perform(decision: Decision, base: DutyModel = this.store.model): SentCall | undefined {
    const { outbox, logger } = this.options;
    let model = base;
    let lastSent: SentCall | undefined;
    let awaited: SentCall | undefined;
    for (const step of decision.steps) {
      switch (step.kind) {
        case 'transition':
        case 'hold':
        case 'release':
        case 'leave':
        case 'forget':
        case 'holdShift':
        case 'endHeld':
          this.store.commit(step, step.after, model);
          model = step.after;
          break;
        case 'send':
          lastSent = outbox.enqueue(step.call, step.appliedInGame ? APPLIED_IN_GAME : undefined);
          if (step.awaited) awaited = lastSent;
          break;
        case 'withdraw':
          outbox.withdraw(step.id, step.undo);
          break;
        case 'markApplied':
          outbox.markApplied(step.id, step.fence);
          break;
        case 'watchApplied': {
          const { src, departmentId, since, retried } = step;
          const delivery = (step.sent ?? (lastSent as SentCall)).result;
          this.appliedOns.next({ delivery, src, departmentId, since, retried });
          break;
        }
        case 'log':
          logger[step.level](step.message);
          break;
        case 'lapseAfter':
          this.lapses.next(step);
          break;
        case 'heldEnded':
          this.heldEnded.next(step);
          break;
      }
    }
    return awaited;
  }

  /** How the wait for the panel to accept an `on` ends (see panelAnswer); the timeout runs on the monotonic clock. */
  private answerOf(src: number, delivery: Promise<DeliveryResult>): Observable<PanelAnswer> {
    const { panel, degradedMode, sleep, onDutyWaitMs } = this.options;
    return panelAnswer(delivery, {
      timeout$: abandonableWait(sleep, onDutyWaitMs),
      left$: this.left$.pipe(filter((leaver) => leaver === src)),
      // In `queue` mode the panel going down lets the duty start without it.
      ...(degradedMode === 'queue' && panel ? { unreachable$: panel.unreachable$ } : {}),
    });
  }
}

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
