import { concatMap, filter, from, map, type Observable, of, queueScheduler, Subject } from 'rxjs';
import type { DegradedMode } from '../../shared/config/index.js';
import type { Department } from '../../shared/contract/index.js';
import { panelPlayerName } from '../../shared/contract/player-name.js';
import type { DeptDataPayload, DutyEndReason, DutyOutcome } from '../../shared/events.js';
import type { Logger } from '../log/logger.js';
import type { PanelFailure } from '../panel/panel-result.js';
import type { ProfileEntry } from '../profiles/profile-cache.js';
import { abandonableWait } from '../time/abandonable-wait.js';
import type { DutyChange } from './duty-change.js';
import { DutyHolders, type OnCall } from './duty-holders.js';
import type { DutyIntent } from './duty-intent.js';
import { type DutyState, OFF_DUTY } from './duty-state.js';
import type { DutyStates } from './duty-states.js';
import type { DeliveryResult, Outbox } from './outbox.js';
import { type PanelAnswer, panelAnswer } from './panel-answer.js';

/** What the duty machine needs to know about a player, looked up when an intent is handled. */
export interface DutyPlayer {
  chatId: string;
  name: string;
}

/** Whether the panel answers, from the circuit breaker. */
export interface PanelStatus {
  readonly isOpen: boolean;
  /** Emits when the panel stops answering. */
  readonly unreachable$: Observable<void>;
}

export interface DutyMachineOptions {
  outbox: Outbox;
  /** Without it the panel is taken to answer. */
  panel?: PanelStatus;
  /** config.lua's DegradedMode: what going on duty does while the panel is unreachable. */
  degradedMode?: DegradedMode;
  logger: Logger;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** How long a player waits for the panel to accept going on duty before the request is given up. */
  onDutyWaitMs: number;
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

/** An `on` the game applied before the panel accepted it, and how to recognise that duty if the panel refuses it. */
export interface AppliedOn {
  delivery: Promise<DeliveryResult>;
  src: number;
  departmentId: number;
  since: number;
  retried: boolean;
}

const refuse = (error: Extract<DutyOutcome, { ok: false }>['error'], message: string): DutyOutcome => ({
  ok: false,
  error,
  message,
});

// Refusals that mean the cached profile is out of date rather than the request being wrong.
const STALE_PROFILE_CODES = new Set(['rank_mismatch', 'not_member']);

const LEFT = refuse('profile_unavailable', 'the player left before the panel answered');

const departmentPayload = (department: Department): DeptDataPayload => ({
  departmentId: department.id,
  slug: department.slug,
  name: department.name,
  rank: department.rank,
  data: department.data,
});

const onCallOf = (src: number, player: DutyPlayer, department: Department): OnCall => ({
  action: 'on',
  body: {
    chatId: player.chatId,
    departmentId: department.id,
    rankId: department.rank.id,
    serverId: src,
    playerName: panelPlayerName(player.name),
  },
});

/**
 * How each intent changes a player's duty: the checks, the panel calls, and the transitions, applied to the states
 * and then announced on `changes$`. The duty service runs it one intent at a time per chat account.
 *
 * At most one session per chat account is on duty, since the panel keeps one duty per account: a session going
 * on duty takes the account's other session off duty in game (`replaced`), without an `off` to the panel, which
 * the new `on` supersedes. An `off` from a session that does not hold the account's duty never reaches the panel.
 * The panel calls are the machine's, not effects of the changes: an `on` must be accepted before the duty changes,
 * and the order the calls enter the outbox is the order the panel sees them in.
 */
export class DutyMachine {
  private readonly changes = new Subject<DutyChange>();
  /** Every transition, once applied to the states. */
  readonly changes$: Observable<DutyChange> = this.changes.asObservable();
  private readonly appliedOns = new Subject<AppliedOn>();
  /** The `on`s the game applied before the panel accepted them; a refusal of one comes back as an intent. */
  readonly appliedOns$: Observable<AppliedOn> = this.appliedOns.asObservable();
  private readonly holders: DutyHolders;
  /** Sessions that dropped: they never go on duty again, and an `on` of theirs still waiting is given up. */
  private readonly leavers = new Set<number>();
  private readonly left$ = new Subject<number>();

  constructor(
    private readonly options: DutyMachineOptions,
    private readonly states: DutyStates,
  ) {
    this.holders = new DutyHolders((src) => states.get(src));
  }

  handle(intent: DutyIntent): Observable<DutyOutcome> {
    const { src } = intent;
    const before = this.state(src);
    switch (intent.kind) {
      case 'on':
        return this.on(src, intent.departmentId);
      case 'off':
        return of(this.off(src, intent.reason));
      case 'reconcile':
        this.reconcile(src, intent.profile);
        return of(this.ok(src, this.state(src) !== before));
      case 'queuedOnRefused':
        return this.queuedOnRefused(intent).pipe(map(() => this.ok(src, this.state(src) !== before)));
    }
  }

  /** See DutyService.forceOffNow. */
  forceOffNow(src: number, reason: DutyEndReason): void {
    const state = this.state(src);
    const player = this.options.player(src);
    if (!state.onDuty || state.departmentId === null || !player) return;
    this.goOff(src, player, state.departmentId, reason);
  }

  /** The session dropped: an `on` of theirs still waiting for the panel is given up at once. */
  leave(src: number): void {
    this.leavers.add(src);
    this.left$.next(src);
  }

  forget(src: number): void {
    this.leavers.delete(src);
    this.holders.forget(src);
  }

  footprint(): { holders: number; leaving: number } {
    return { holders: this.holders.size, leaving: this.leavers.size };
  }

  private state(src: number): DutyState {
    return this.states.get(src);
  }

  private ok(src: number, changed: boolean): DutyOutcome {
    const { onDuty, departmentId, rankId, since } = this.state(src);
    return { ok: true, changed, onDuty, departmentId, rankId, since };
  }

  private get panelDown(): boolean {
    return this.options.panel?.isOpen ?? false;
  }

  /** Applies a transition to the states, then tells the effects. */
  private commit(change: DutyChange): void {
    this.states.apply(change);
    // Through the queue scheduler's trampoline: a change an effect causes at once (an integration taking another
    // player off duty) is announced after every effect has heard of the current one, so each effect sees the changes
    // in the order they happened. Still synchronous from the outside: at resource stop it all runs now.
    queueScheduler.schedule(() => this.changes.next(change));
  }

  private on(src: number, departmentId: number): Observable<DutyOutcome> {
    if (this.leavers.has(src)) return of(LEFT);
    const player = this.options.player(src);
    if (!player) return of(refuse('profile_unavailable', 'the player has no linked chat account'));
    const current = this.state(src);
    if (current.onDuty && current.departmentId === departmentId) return of(this.ok(src, false));
    return from(this.options.profile(src, false)).pipe(
      concatMap((profile) => this.tryOn(src, player, departmentId, profile, 'first')),
    );
  }

  /**
   * One try at going on duty with the profile given. The panel knows the player's roles better than our cache: a
   * first try it refuses as out of date (after a promotion or a role change) fetches the profile again and tries
   * once more with what it says.
   */
  private tryOn(
    src: number,
    player: DutyPlayer,
    departmentId: number,
    profile: ProfileEntry | undefined,
    attempt: 'first' | 'again',
  ): Observable<DutyOutcome> {
    if (this.leavers.has(src)) return of(LEFT);
    if (profile?.kind !== 'found') return of(refuse('profile_unavailable', 'your departments could not be loaded'));
    const department = profile.departments.find((entry) => entry.id === departmentId);
    if (!department) return of(refuse('not_member', `you are not a member of department ${departmentId}`));
    const call = onCallOf(src, player, department);
    const { outbox } = this.options;

    // Known to be down: answer now instead of waiting out a timeout.
    if (this.panelDown) {
      if (this.options.degradedMode !== 'queue') {
        return of(refuse('panel_unavailable', 'the panel is unreachable; going on duty works again once it answers'));
      }
      this.switchAwayFrom(src, player, departmentId);
      const { result } = outbox.enqueue(call, { appliedInGame: true });
      this.applyQueued(src, department, call, result);
      return of(this.ok(src, true));
    }

    this.switchAwayFrom(src, player, departmentId);
    const { id, result } = outbox.enqueue(call);
    return this.answerOf(src, result).pipe(
      concatMap((answer) => {
        if (answer.kind === 'left' || this.leavers.has(src)) {
          // Never on duty in game; the panel must not keep a duty that no session has.
          const undo = this.holders.undoOf(src, call);
          if (answer.kind === 'delivered') {
            if (undo) outbox.enqueue(undo);
          } else if (answer.kind !== 'refused') outbox.withdraw(id, undo);
          return of(LEFT);
        }
        if (answer.kind === 'panel_down') {
          // The panel went down while the player waited: in `queue` mode the duty starts now, the call stays queued.
          outbox.markApplied(id);
          this.applyQueued(src, department, call, result);
          return of(this.ok(src, true));
        }
        if (answer.kind === 'timed_out' || answer.kind === 'withdrawn') {
          outbox.withdraw(id, this.holders.undoOf(src, call));
          return of(refuse('panel_unavailable', 'the panel did not answer; try again in a moment'));
        }
        if (answer.kind === 'refused') {
          if (attempt === 'first' && STALE_PROFILE_CODES.has(String(answer.failure.code))) {
            return from(this.options.profile(src, true)).pipe(
              concatMap((fresh) => this.tryOn(src, player, departmentId, fresh, 'again')),
            );
          }
          // The panel said it holds a duty the game did not ask for: the account's duty there goes back to what the
          // game has.
          if (answer.failure.kind === 'contradicted') outbox.enqueue(this.holders.accountAsInGame(src, call));
          return of(refuse('panel_refused', `the panel refused: ${answer.failure.message}`));
        }
        this.start(src, department, call);
        return of(this.ok(src, true));
      }),
    );
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

  /** Going on duty for another department while on duty is off, then on. */
  private switchAwayFrom(src: number, player: DutyPlayer, departmentId: number): void {
    const onDuty = this.state(src);
    if (onDuty.onDuty && onDuty.departmentId !== null && onDuty.departmentId !== departmentId) {
      this.goOff(src, player, onDuty.departmentId, 'request');
    }
  }

  private start(src: number, department: Department, call: OnCall): DutyState {
    const { chatId } = call.body;
    const holder = this.holders.holder(chatId);
    if (holder !== undefined && holder !== src) this.replace(holder);
    this.holders.hold(src, call);
    const next: DutyState = {
      onDuty: true,
      departmentId: department.id,
      departmentSlug: department.slug,
      departmentName: department.name,
      rankId: department.rank.id,
      since: this.options.now(),
    };
    this.commit({
      kind: 'on',
      src,
      chatId,
      previous: this.state(src),
      next,
      department: departmentPayload(department),
    });
    return next;
  }

  /**
   * Another session of the account went on duty: this one goes off duty in game only. A session that is leaving
   * meanwhile has no client left to tell: it went off duty by dropping.
   */
  private replace(src: number): void {
    const previous = this.state(src);
    if (!previous.onDuty || previous.departmentId === null) return;
    const reason = this.leavers.has(src) ? 'dropped' : 'replaced';
    const chatId = this.options.player(src)?.chatId;
    this.commit({ kind: 'off', src, chatId, previous, next: OFF_DUTY, reason });
  }

  /** On duty in game while the `on` waits in the outbox; a later refusal by the panel undoes it. */
  private applyQueued(
    src: number,
    department: Department,
    call: OnCall,
    delivery: Promise<DeliveryResult>,
    retried = false,
  ): void {
    const state = this.start(src, department, call);
    this.options.logger.info(
      `player ${src} is on duty in department ${department.slug} while the panel is unreachable; the panel learns it once it answers`,
    );
    if (state.since !== null) {
      this.appliedOns.next({ delivery, src, departmentId: department.id, since: state.since, retried });
    }
  }

  /** Sends an `on` the game has already applied; a refusal comes back as `queuedOnRefused`. */
  private sendApplied(src: number, call: OnCall, since: number, retried: boolean): void {
    const { result } = this.options.outbox.enqueue(call, { appliedInGame: true });
    this.appliedOns.next({ delivery: result, src, departmentId: call.body.departmentId, since, retried });
  }

  /**
   * The game takes what the panel now says of the department the player is on duty in: its rank (`rank`), or else
   * its slug and name (`renamed`). Nothing changed, nothing is committed.
   */
  private follow(src: number, state: DutyState, department: Department): void {
    const next: DutyState = {
      ...state,
      departmentSlug: department.slug,
      departmentName: department.name,
      rankId: department.rank.id,
    };
    const kind = next.rankId !== state.rankId ? 'rank' : 'renamed';
    if (
      kind === 'renamed' &&
      next.departmentSlug === state.departmentSlug &&
      next.departmentName === state.departmentName
    )
      return;
    const chatId = this.options.player(src)?.chatId;
    this.commit({ kind, src, chatId, previous: state, next, department: departmentPayload(department) });
  }

  /**
   * The panel refused an `on` the game had applied. Refused as out of date, the profile is fetched once and what it
   * says is sent instead; otherwise (or again) the player goes off duty.
   */
  private queuedOnRefused(intent: Extract<DutyIntent, { kind: 'queuedOnRefused' }>): Observable<void> {
    const { src, departmentId, since, failure } = intent;
    const state = this.state(src);
    const player = this.options.player(src);
    // The player has moved on since (off duty, another department, another session): nothing to undo.
    if (!player || !state.onDuty || state.departmentId !== departmentId || state.since !== since) return of(undefined);
    if (intent.retried || !STALE_PROFILE_CODES.has(String(failure.code))) {
      return of(this.giveUpApplied(src, player, departmentId, failure));
    }
    return from(this.options.profile(src, true)).pipe(
      map((profile) => {
        const department =
          profile?.kind === 'found' ? profile.departments.find((d) => d.id === departmentId) : undefined;
        if (!department) return this.giveUpApplied(src, player, departmentId, failure);
        const call = onCallOf(src, player, department);
        if (this.holders.holds(player.chatId, src)) this.holders.hold(src, call);
        this.sendApplied(src, call, since, true);
        this.follow(src, state, department);
      }),
    );
  }

  private giveUpApplied(src: number, player: DutyPlayer, departmentId: number, failure: PanelFailure): void {
    this.options.logger.warn(
      `the panel refused the duty of player ${src} in department ${departmentId} that the game had already applied (${failure.code ?? failure.kind}); they go off duty`,
    );
    // The refused `on` did not replace at the panel the duty it replaced in game (another session's, or this
    // session's previous department): the `off` ends whatever duty the account still has there.
    const reason = failure.code === 'user_not_found' ? 'account_removed' : 'department_removed';
    this.goOff(src, player, departmentId, reason, 'account');
  }

  private off(src: number, reason: DutyEndReason): DutyOutcome {
    const state = this.state(src);
    const player = this.options.player(src);
    if (!state.onDuty || state.departmentId === null || !player) return this.ok(src, false);
    this.goOff(src, player, state.departmentId, reason);
    return this.ok(src, true);
  }

  /**
   * Off duty takes effect in game at once; the panel learns it through the outbox, so no one is stuck on duty. A
   * session that does not hold its account's duty (another one went on duty since) tells the panel nothing.
   */
  private goOff(
    src: number,
    player: DutyPlayer,
    departmentId: number,
    reason: DutyEndReason,
    ends: 'department' | 'account' = 'department',
  ): void {
    const { chatId } = player;
    if (this.holders.holds(chatId, src)) {
      this.holders.release(chatId);
      this.options.outbox.enqueue({ action: 'off', body: ends === 'account' ? { chatId } : { chatId, departmentId } });
    }
    this.commit({ kind: 'off', src, chatId, previous: this.state(src), next: OFF_DUTY, reason });
  }

  private reconcile(src: number, asked: ProfileEntry): void {
    const state = this.state(src);
    if (!state.onDuty || state.departmentId === null) return;
    const profile = this.options.latestProfile?.(src) ?? asked;
    const player = this.options.player(src);
    if (profile.kind === 'not_registered') {
      // The panel itself no longer knows the account (deleted or banned): whatever duty it had there ends with it.
      if (player) this.goOff(src, player, state.departmentId, 'account_removed', 'account');
      return;
    }
    const department = profile.departments.find((d) => d.id === state.departmentId);
    if (!department) {
      if (player) this.goOff(src, player, state.departmentId, 'department_removed');
      return;
    }
    if (!player) return;
    if (department.rank.id !== state.rankId) this.changeRank(src, player, state, department);
    // The panel keeps duty by department and rank id: a new slug or name is the game's alone to follow.
    else this.follow(src, state, department);
  }

  /**
   * The panel keeps a duty per department and rank: a new rank is a new session there, so the game applies it at
   * once and the panel gets an `on` with it, in order with the account's other calls. A refusal (the rank changed
   * again meanwhile) fetches the profile once and sends what it says; refused again, the player goes off duty.
   */
  private changeRank(src: number, player: DutyPlayer, state: DutyState, department: Department): void {
    this.follow(src, state, department);
    if (!this.holders.holds(player.chatId, src) || state.since === null) return;
    const call = onCallOf(src, player, department);
    this.holders.hold(src, call);
    this.sendApplied(src, call, state.since, false);
  }
}
