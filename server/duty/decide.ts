import type { DegradedMode } from '../../shared/config/index.js';
import type { Department } from '../../shared/contract/index.js';
import { panelPlayerName } from '../../shared/contract/player-name.js';
import type { DeptDataPayload, DutyEndReason, DutyOutcome } from '../../shared/events.js';
import type { PanelFailure } from '../panel/index.js';
import type { ProfileEntry } from '../profiles/index.js';
import type { DutyIntent } from './duty.js';
import type { CallFence, DutyCall, OffCall, OnCall, PanelAnswer, SentCall } from './duty-call.js';
import type { DutyChange } from './duty-model.js';
import {
  applyUpdate,
  type DutyModel,
  type DutyState,
  type DutyUpdate,
  type HeldShift,
  OFF_DUTY,
  sessionOf,
  shiftOf,
} from './duty-model.js';

/** What the duty rules need to know about a player, looked up when an intent is handled. */
export interface DutyPlayer {
  chatId: string;
  name: string;
}

/** What a decision reads besides the model; the interpreter fills it in before each one. */
export interface DecideContext {
  /** The wall clock now: a duty's `since`. */
  now: number;
  /** The circuit breaker holds the panel for unreachable. */
  panelDown: boolean;
  /** config.lua's DegradedMode: what going on duty does while the panel is unreachable. */
  degradedMode: DegradedMode | undefined;
  /** config.lua's ResumeWindowMs: how long a shift is held after its game crashed or timed out (0: not at all). */
  resumeWindowMs: number;
}

type OnAttempt = 'first' | 'again';

/** An intent with its player looked up; `takenElsewhere`, `restate` and `heldLapsed` name the account themselves. */
type LookedUp<I> = I extends { kind: 'takenElsewhere' | 'restate' | 'heldLapsed' }
  ? I
  : I & { player: DutyPlayer | undefined };

/**
 * What a decision is asked: the intents (with the player looked up), and the answers to the waits it asked for. A
 * wait's answer comes back as its own input, with what the decision that asked for it handed on.
 */
export type DecideInput =
  | LookedUp<DutyIntent>
  /** Off duty at once, outside the account's lane (a resource stop); no outcome. */
  | { kind: 'forceOff'; src: number; reason: DutyEndReason; player: DutyPlayer | undefined }
  | { kind: 'leave'; src: number }
  | { kind: 'forget'; src: number }
  /** Every held shift ends at once (the server is going away); no outcome. */
  | { kind: 'endHeldShifts' }
  | ProfileForOn
  | AnswerToOn
  | ProfileForRefusedOn
  | ProfileForResume;

/** The profile to try going on duty with. */
export interface ProfileForOn {
  kind: 'profileForOn';
  src: number;
  departmentId: number;
  player: DutyPlayer;
  attempt: OnAttempt;
  profile: ProfileEntry | undefined;
}

/** How the wait for the panel to accept an `on` ended. */
export interface AnswerToOn {
  kind: 'answerToOn';
  src: number;
  player: DutyPlayer;
  department: Department;
  call: OnCall;
  attempt: OnAttempt;
  sent: SentCall;
  answer: PanelAnswer;
}

/** The profile fetched again after the panel refused, as out of date, an `on` the game had applied. */
export interface ProfileForRefusedOn {
  kind: 'profileForRefusedOn';
  src: number;
  departmentId: number;
  since: number;
  failure: PanelFailure;
  player: DutyPlayer;
  /** The player's duty when the refusal was handled. */
  before: DutyState;
  profile: ProfileEntry | undefined;
}

/** The profile of a session that came in while its account's shift was held. */
export interface ProfileForResume {
  kind: 'profileForResume';
  src: number;
  player: DutyPlayer;
  profile: ProfileEntry | undefined;
}

/** An input less what the wait for it brings. */
type Resume<Input, Brought extends keyof Input> = Input extends unknown ? Omit<Input, Brought> : never;

/** What the interpreter waits for before it asks again; the answer comes back as `resume` with it. */
export type DutyWait =
  | {
      kind: 'profile';
      src: number;
      refetch: boolean;
      resume: Resume<ProfileForOn | ProfileForRefusedOn | ProfileForResume, 'profile'>;
    }
  /** The panel's answer to the `on` this decision sent (its `awaited` send), raced with leaving and the timeout. */
  | { kind: 'answer'; src: number; resume: Omit<AnswerToOn, 'sent' | 'answer'> };

/** A call the decision makes, in its place among the updates. */
export type DutyCallStep =
  /** Hands a call to the outbox. `awaited`: the decision waits for its answer. */
  | { kind: 'send'; call: DutyCall; appliedInGame: boolean; awaited: boolean }
  | { kind: 'withdraw'; id: number; undo: DutyCall | null }
  /** The game applied this `on` after all: from now on it goes under its duty's claim (`fence`). */
  | { kind: 'markApplied'; id: number; fence: CallFence }
  /**
   * An `on` the game applied before the panel accepted it: a refusal of it comes back as `queuedOnRefused`.
   * `sent` null: the delivery of this decision's last send.
   */
  | { kind: 'watchApplied'; sent: SentCall | null; src: number; departmentId: number; since: number; retried: boolean }
  | { kind: 'log'; level: 'info' | 'warn'; message: string }
  /** A shift is now held: `heldLapsed` comes back after `ms` (the resume window, on the monotonic clock). */
  | { kind: 'lapseAfter'; chatId: string; src: number; ms: number }
  /**
   * The held shift `src` dropped from ended without it (its `off` is in the outbox, or another `on` replaced it): its
   * crash record goes, and in a community its claim. `since`: when the shift began.
   */
  | { kind: 'heldEnded'; chatId: string; src: number; since: number | null };

/** An update of the model with the model after it (as this decision saw it), or a call. */
export type DutyStep = (DutyUpdate & { after: DutyModel }) | DutyCallStep;

/**
 * A decision: the model after it, the transitions it made, and every step in the order the interpreter runs them
 * (updates, each with the model after it, and the outbox and log calls between them: the order calls enter the
 * outbox is the order the panel sees them in, and each transition is announced with the state it describes). It
 * ends with an outcome, or with a wait whose answer is asked about next.
 */
export interface Decision {
  readonly state: DutyModel;
  readonly changes: readonly DutyChange[];
  readonly steps: readonly DutyStep[];
  readonly outcome: DutyOutcome | undefined;
  readonly wait: DutyWait | undefined;
}

const refuse = (error: Extract<DutyOutcome, { ok: false }>['error'], message: string): DutyOutcome => ({
  ok: false,
  error,
  message,
});

// Refusals that mean the cached profile is out of date rather than the request being wrong.
const STALE_PROFILE_CODES: ReadonlySet<string> = new Set(['rank_mismatch', 'not_member']);

const LEFT = refuse('profile_unavailable', 'the player left before the panel answered');

const departmentPayload = (department: Department): DeptDataPayload => ({
  departmentId: department.id,
  slug: department.slug,
  name: department.name,
  rank: department.rank,
  data: department.data,
});

/** An `off` for an `on` that was never claimed: sent only while no live claim of the account exists. */
const UNCLAIMED: CallFence = { unclaimed: true };

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
 * The duty rules: from the model and one input, the next model, the transitions, and the calls to make. Pure: it
 * reads nothing but its arguments and changes none of them; the interpreter runs what it returns.
 *
 * At most one session per chat account is on duty, since the panel keeps one duty per account: a session going
 * on duty takes the account's other session off duty in game (`replaced`), without an `off` to the panel, which
 * the new `on` supersedes. An `off` from a session that does not hold the account's duty never reaches the panel.
 * An `on` must be accepted by the panel before the duty changes, so going on duty waits for its answer (a wait the
 * decision asks for; the answer is the next input).
 */
export function decide(model: DutyModel, input: DecideInput, context: DecideContext): Decision {
  const decision = new Deciding(model, context);
  decision.run(input);
  return decision;
}

class Deciding implements Decision {
  state: DutyModel;
  readonly changes: DutyChange[] = [];
  readonly steps: DutyStep[] = [];
  outcome: DutyOutcome | undefined = undefined;
  wait: DutyWait | undefined = undefined;

  constructor(
    model: DutyModel,
    private readonly context: DecideContext,
  ) {
    this.state = model;
  }

  run(input: DecideInput): void {
    this.outcome = this.outcomeOf(input);
  }

  /** The outcome, or undefined when the decision ends with a wait (or the input has none). */
  private outcomeOf(input: DecideInput): DutyOutcome | undefined {
    if (input.kind === 'endHeldShifts') {
      this.state.held.forEach((shift, chatId) => {
        this.endHeld(chatId, shift, this.offOf(chatId, shift));
      });
      return;
    }
    const before = sessionOf(this.state, input.src);
    switch (input.kind) {
      case 'on':
        return this.on(input.src, input.departmentId, input.player);
      case 'profileForOn':
        return this.tryOn(input);
      case 'answerToOn':
        return this.answered(input);
      case 'off':
        return this.off(input.src, input.reason, input.player, input.resumable === true);
      case 'forceOff':
        this.off(input.src, input.reason, input.player, false);
        return;
      case 'reconcile':
        this.reconcile(input.src, input.profile, input.player);
        return this.ok(input.src, this.session(input.src) !== before);
      case 'queuedOnRefused':
        return this.queuedOnRefused(input, before);
      case 'profileForRefusedOn':
        this.refetchedForRefusedOn(input);
        return this.ok(input.src, this.session(input.src) !== input.before);
      case 'takenElsewhere':
        return this.takenElsewhere(input);
      case 'restate':
        return this.restate(input.src, input.chatId);
      case 'resume':
        return this.resume(input.src, input.player);
      case 'heldElsewhere':
        return this.heldElsewhere(input);
      case 'profileForResume':
        return this.ok(input.src, this.resumeWith(input));
      case 'heldLapsed':
        this.lapse(input.chatId, input.src);
        return this.ok(input.src, false);
      case 'leave':
      case 'forget':
        this.update({ kind: input.kind, src: input.src });
    }
  }

  private session(src: number): DutyState {
    return sessionOf(this.state, src);
  }

  private holds(chatId: string, src: number): boolean {
    return this.state.holders.get(chatId)?.src === src;
  }

  /**
   * The fence of a call for the duty `src` holds: its shift must still own the account in the community's Redis
   * (docs/several-servers.md, "How an account's duty is fenced"). `since` defaults to the session's duty's.
   */
  private fenceOf(src: number, since = this.session(src).since): CallFence {
    return since === null ? UNCLAIMED : { shift: shiftOf(src, since) };
  }

  private leaving(src: number): boolean {
    return this.state.leaving.has(src);
  }

  private update(update: DutyUpdate): void {
    this.state = applyUpdate(this.state, update);
    this.steps.push({ ...update, after: this.state });
  }

  private transition(change: DutyChange): void {
    this.changes.push(change);
    this.update({ kind: 'transition', change });
  }

  private send(call: DutyCall, appliedInGame = false, awaited = false): void {
    this.steps.push({ kind: 'send', call, appliedInGame, awaited });
  }

  /** Ends the decision with a wait: the outcome comes with a later one. */
  private waitFor(wait: DutyWait): undefined {
    this.wait = wait;
    return undefined;
  }

  private ok(src: number, changed: boolean): DutyOutcome {
    const { onDuty, departmentId, rankId, since } = this.session(src);
    return { ok: true, changed, onDuty, departmentId, rankId, since };
  }

  private on(src: number, departmentId: number, player: DutyPlayer | undefined): DutyOutcome | undefined {
    if (this.leaving(src)) {
      return LEFT;
    }
    if (!player) {
      return refuse('profile_unavailable', 'the player has no linked chat account');
    }
    const current = this.session(src);
    if (current.onDuty && current.departmentId === departmentId) return this.ok(src, false);
    return this.waitFor({
      kind: 'profile',
      src,
      refetch: false,
      resume: { kind: 'profileForOn', src, departmentId, player, attempt: 'first' },
    });
  }

  /**
   * One try at going on duty with the profile given. The panel knows the player's roles better than our cache: a
   * first try it refuses as out of date (after a promotion or a role change) fetches the profile again and tries
   * once more with what it says.
   */
  private tryOn({ src, departmentId, player, attempt, profile }: ProfileForOn): DutyOutcome | undefined {
    if (this.leaving(src)) {
      return LEFT;
    }
    if (profile?.kind !== 'found') {
      return refuse('profile_unavailable', 'your departments could not be loaded');
    }
    const department = profile.departments.find((entry) => entry.id === departmentId);
    if (!department) {
      return refuse('not_member', `you are not a member of department ${departmentId}`);
    }
    const call = onCallOf(src, player, department);

    // Known to be down: answer now instead of waiting out a timeout.
    if (this.context.panelDown) {
      if (this.context.degradedMode !== 'queue') {
        return refuse('panel_unavailable', 'the panel is unreachable; going on duty works again once it answers');
      }
      this.switchAwayFrom(src, player, departmentId);
      // Its claim is made as the duty starts, before the panel takes it: it is sent only while that claim holds.
      this.send({ ...call, fence: this.fenceOf(src, this.context.now) }, true);
      this.applyQueued(src, department, call, null);
      return this.ok(src, true);
    }

    this.switchAwayFrom(src, player, departmentId);
    this.send(call, false, true);
    return this.waitFor({
      kind: 'answer',
      src,
      resume: { kind: 'answerToOn', src, player, department, call, attempt },
    });
  }

  private answered({ src, player, department, call, attempt, sent, answer }: AnswerToOn): DutyOutcome | undefined {
    if (answer.kind === 'left' || this.leaving(src)) {
      // Never on duty in game; the panel must not keep a duty that no session has.
      const undo = this.undoOf(src, call);
      if (answer.kind === 'delivered') {
        if (undo) this.send(undo);
      } else if (answer.kind !== 'refused') this.steps.push({ kind: 'withdraw', id: sent.id, undo });
      return LEFT;
    }
    if (answer.kind === 'panel_down') {
      // The panel went down while the player waited: in `queue` mode the duty starts now, the call stays queued.
      this.steps.push({ kind: 'markApplied', id: sent.id, fence: this.fenceOf(src, this.context.now) });
      this.applyQueued(src, department, call, sent);
      return this.ok(src, true);
    }
    if (answer.kind === 'timed_out' || answer.kind === 'withdrawn') {
      this.steps.push({ kind: 'withdraw', id: sent.id, undo: this.undoOf(src, call) });
      return refuse('panel_unavailable', 'the panel did not answer; try again in a moment');
    }
    if (answer.kind === 'refused') {
      if (attempt === 'first' && STALE_PROFILE_CODES.has(String(answer.failure.code))) {
        const departmentId = department.id;
        return this.waitFor({
          kind: 'profile',
          src,
          refetch: true,
          resume: { kind: 'profileForOn', src, departmentId, player, attempt: 'again' },
        });
      }
      // The panel said it holds a duty the game did not ask for: the account's duty there goes back to what the
      // game has.
      if (answer.failure.kind === 'contradicted') this.send(this.accountAsInGame(src, call));
      return refuse('panel_refused', `the panel refused: ${answer.failure.message}`);
    }
    this.start(src, department, call);
    return this.ok(src, true);
  }

  /** Going on duty for another department while on duty is off, then on. */
  private switchAwayFrom(src: number, player: DutyPlayer, departmentId: number): void {
    const onDuty = this.session(src);
    if (onDuty.onDuty && onDuty.departmentId !== null && onDuty.departmentId !== departmentId) {
      this.goOff(src, player, onDuty.departmentId, 'request');
    }
  }

  private start(src: number, department: Department, call: OnCall): DutyState {
    const { chatId } = call.body;
    // The new `on` replaced at the panel the shift the account had held: it needs no `off`.
    const shift = this.state.held.get(chatId);
    if (shift) this.endHeld(chatId, shift, null);
    const holder = this.state.holders.get(chatId)?.src;
    if (holder !== undefined && holder !== src) this.replace(holder, chatId);
    this.update({ kind: 'hold', holder: { src, call } });
    const next: DutyState = {
      onDuty: true,
      departmentId: department.id,
      departmentSlug: department.slug,
      departmentName: department.name,
      rankId: department.rank.id,
      since: this.context.now,
    };
    this.transition({
      kind: 'on',
      src,
      chatId,
      previous: this.session(src),
      next,
      department: departmentPayload(department),
    });
    return next;
  }

  /**
   * Another session of the account went on duty: this one goes off duty in game only. A session that is leaving
   * meanwhile has no client left to tell: it went off duty by dropping.
   */
  private replace(src: number, chatId: string, reason: 'replaced' | 'superseded' = 'replaced'): void {
    const previous = this.session(src);
    if (!previous.onDuty || previous.departmentId === null) return;
    this.transition({
      kind: 'off',
      src,
      chatId,
      previous,
      next: OFF_DUTY,
      reason: this.leaving(src) ? 'dropped' : reason,
    });
  }

  /**
   * Another server's `on` replaced this session's duty at the panel, as another session's does on one server: the
   * session goes off duty in game only (`replaced`, or `superseded` when the community settled it after a fault), with
   * no `off`, which would end the other server's duty there. When that server's duty had ended already, this
   * session's own may be the one left at the panel: an `off` that goes only while no live claim exists ends it.
   */
  private takenElsewhere({ src, chatId, reason, panelOff }: Extract<DecideInput, { kind: 'takenElsewhere' }>) {
    // A shift held here after its game crashed: the other server's claim took the account (its `on`, or its session
    // took the shift over), so it ends here without an `off`, unless that claim had ended already.
    const shift = this.state.held.get(chatId);
    if (shift?.src === src) {
      this.endHeld(chatId, shift, panelOff ? { ...this.offOf(chatId, shift), fence: UNCLAIMED } : null);
      this.steps.push({
        kind: 'log',
        level: 'info',
        message: `the shift of player ${src}, held since their game crashed or timed out, is another server's now: it ends here without an off`,
      });
      return this.ok(src, false);
    }
    const { departmentId } = this.session(src);
    if (!this.holds(chatId, src) || departmentId === null) return this.ok(src, false);
    this.update({ kind: 'release', chatId });
    if (panelOff) this.send({ action: 'off', body: { chatId, departmentId }, fence: UNCLAIMED });
    this.replace(src, chatId, reason);
    return this.ok(src, true);
  }

  /**
   * The session's claim won over another server's whose calls may have reached the panel after its `on` (or the
   * loser asked): its duty is sent again, a no-op at the panel when nothing was wrong.
   */
  private restate(src: number, chatId: string): DutyOutcome {
    const shift = this.state.held.get(chatId);
    const held =
      shift?.src === src ? this.heldShiftCall(shift) : this.holds(chatId, src) ? this.heldDutyCall(chatId) : undefined;
    if (held) this.send(held, true);
    return this.ok(src, false);
  }

  /** On duty in game while the `on` waits in the outbox; a later refusal by the panel undoes it. */
  private applyQueued(src: number, department: Department, call: OnCall, sent: SentCall | null): void {
    this.start(src, department, call);
    this.steps.push({
      kind: 'log',
      level: 'info',
      message: `player ${src} is on duty in department ${department.slug} while the panel is unreachable; the panel learns it once it answers`,
    });
    this.steps.push({
      kind: 'watchApplied',
      sent,
      src,
      departmentId: department.id,
      since: this.context.now,
      retried: false,
    });
  }

  /** Sends an `on` the game has already applied; a refusal comes back as `queuedOnRefused`. */
  private sendApplied(src: number, call: OnCall, since: number, retried: boolean): void {
    this.send({ ...call, fence: this.fenceOf(src, since) }, true);
    this.steps.push({ kind: 'watchApplied', sent: null, src, departmentId: call.body.departmentId, since, retried });
  }

  /**
   * The game takes what the panel now says of the department the player is on duty in: its rank (`rank`), or else
   * its slug and name (`renamed`). Nothing changed, nothing is committed.
   */
  private follow(src: number, player: DutyPlayer, state: DutyState, department: Department): void {
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
    const { chatId } = player;
    this.transition({ kind, src, chatId, previous: state, next, department: departmentPayload(department) });
  }

  /**
   * The panel refused an `on` the game had applied. Refused as out of date, the profile is fetched once and what it
   * says is sent instead; otherwise (or again) the player goes off duty.
   */
  private queuedOnRefused(
    input: Extract<DecideInput, { kind: 'queuedOnRefused' }>,
    state: DutyState,
  ): DutyOutcome | undefined {
    const { src, departmentId, since, failure, player } = input;
    // The player has moved on since (off duty, another department, another session): nothing to undo.
    if (!player || !state.onDuty || state.departmentId !== departmentId || state.since !== since) {
      return this.ok(src, false);
    }
    if (input.retried || !STALE_PROFILE_CODES.has(String(failure.code))) {
      this.giveUpApplied(src, player, departmentId, failure);
      return this.ok(src, this.session(src) !== state);
    }
    return this.waitFor({
      kind: 'profile',
      src,
      refetch: true,
      resume: { kind: 'profileForRefusedOn', src, departmentId, since, failure, player, before: state },
    });
  }

  private refetchedForRefusedOn({ src, departmentId, since, failure, player, before, profile }: ProfileForRefusedOn) {
    const department = profile?.kind === 'found' ? profile.departments.find((d) => d.id === departmentId) : undefined;
    if (!department) return this.giveUpApplied(src, player, departmentId, failure);
    const call = onCallOf(src, player, department);
    if (this.holds(player.chatId, src)) this.update({ kind: 'hold', holder: { src, call } });
    this.sendApplied(src, call, since, true);
    this.follow(src, player, before, department);
  }

  private giveUpApplied(src: number, player: DutyPlayer, departmentId: number, failure: PanelFailure): void {
    this.steps.push({
      kind: 'log',
      level: 'warn',
      message: `the panel refused the duty of player ${src} in department ${departmentId} that the game had already applied (${failure.code ?? failure.kind}); they go off duty`,
    });
    // The refused `on` did not replace at the panel the duty it replaced in game (another session's, or this
    // session's previous department): the `off` ends whatever duty the account still has there.
    const reason = failure.code === 'user_not_found' ? 'account_removed' : 'department_removed';
    this.goOff(src, player, departmentId, reason, 'account');
  }

  private off(
    src: number,
    reason: DutyEndReason,
    player: DutyPlayer | undefined,
    resumable: boolean,
  ): DutyOutcome | undefined {
    const state = this.session(src);
    if (!state.onDuty || state.departmentId === null || !player) return this.ok(src, false);
    if (resumable && this.context.resumeWindowMs > 0 && this.holds(player.chatId, src)) {
      this.holdShift(src, player.chatId, state);
    } else this.goOff(src, player, state.departmentId, reason);
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
    if (this.holds(chatId, src)) {
      const fence = this.fenceOf(src);
      this.update({ kind: 'release', chatId });
      this.send({ action: 'off', body: ends === 'account' ? { chatId } : { chatId, departmentId }, fence });
    }
    this.transition({ kind: 'off', src, chatId, previous: this.session(src), next: OFF_DUTY, reason });
  }

  private reconcile(src: number, profile: ProfileEntry, player: DutyPlayer | undefined): void {
    const state = this.session(src);
    if (!state.onDuty || state.departmentId === null) {
      // A profile that arrives after the session came in (the panel was down then) may resume its held shift.
      if (player && this.state.held.has(player.chatId)) this.resumeWith({ src, player, profile });
      return;
    }
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
    else this.follow(src, player, state, department);
  }

  /**
   * The panel keeps a duty per department and rank: a new rank is a new session there, so the game applies it at
   * once and the panel gets an `on` with it, in order with the account's other calls. A refusal (the rank changed
   * again meanwhile) fetches the profile once and sends what it says; refused again, the player goes off duty.
   */
  private changeRank(src: number, player: DutyPlayer, state: DutyState, department: Department): void {
    this.follow(src, player, state, department);
    if (!this.holds(player.chatId, src) || state.since === null) return;
    const call = onCallOf(src, player, department);
    this.update({ kind: 'hold', holder: { src, call } });
    this.sendApplied(src, call, state.since, false);
  }

  /**
   * What ends at the panel an `on` the game did not apply: an `off`, unless another session of the account holds
   * the duty by then; that session's duty is then sent again (the `on` replaced it at the panel), or nothing when
   * the `on` asked for the very same duty.
   */
  private undoOf(src: number, call: OnCall): DutyCall | null {
    const { chatId, departmentId } = call.body;
    const held = this.heldDutyCall(chatId, src);
    if (!held) return { action: 'off', body: { chatId, departmentId }, fence: UNCLAIMED };
    if (held.body.departmentId === departmentId && held.body.rankId === call.body.rankId) return null;
    return held;
  }

  /**
   * The call that makes the account's duty at the panel what the game has, whatever the panel holds now: another
   * session's duty sent again, or an `off` naming no department, which ends any duty of the account.
   */
  private accountAsInGame(src: number, call: OnCall): DutyCall {
    return (
      this.heldDutyCall(call.body.chatId, src) ?? {
        action: 'off',
        body: { chatId: call.body.chatId },
        fence: UNCLAIMED,
      }
    );
  }

  /** The `on` of the duty a session of the account holds in game (another than `exceptSrc`), if one does. */
  private heldDutyCall(chatId: string, exceptSrc?: number): OnCall | undefined {
    const holder = this.state.holders.get(chatId);
    const held = holder && holder.src !== exceptSrc ? this.session(holder.src) : undefined;
    if (!holder || !held?.onDuty || held.departmentId === null || held.rankId === null) return undefined;
    const body = { ...holder.call.body, departmentId: held.departmentId, rankId: held.rankId };
    return { action: 'on', body, fence: this.fenceOf(holder.src) };
  }

  /**
   * Config.ResumeWindowMs: the session's game crashed or timed out. The session ends in game, but the shift stays
   * open at the panel, held for the account (no `off`), and its crash record stays: a server crash during the window
   * still ends it at the next start. A session of the account that comes back in time takes it (`resume`); else
   * `heldLapsed` ends it when the window runs out.
   */
  private holdShift(src: number, chatId: string, state: DutyState): void {
    const call = this.state.holders.get(chatId)?.call;
    this.update({ kind: 'release', chatId });
    this.update({ kind: 'holdShift', chatId, shift: { src, state, ...(call ? { call } : {}) } });
    this.transition({ kind: 'off', src, chatId, previous: state, next: OFF_DUTY, reason: 'dropped', resumable: true });
    this.steps.push({ kind: 'lapseAfter', chatId, src, ms: this.context.resumeWindowMs });
  }

  /**
   * Across a community (issue 32): this server's claim took over the account's shift held on another server. It is
   * held here for the rest of its window, and this session takes it as a rejoin here would (the profile decides); not
   * taken in time, it ends with one `off`, fenced by this server's claim. An account this server already holds or
   * holds a shift of cannot have been taken over (Redis's record was this server's): nothing to do.
   */
  private heldElsewhere(input: Extract<DecideInput, { kind: 'heldElsewhere' }>): DutyOutcome | undefined {
    const { src, chatId, departmentId, rankId, since, leftMs, player } = input;
    if (this.state.held.has(chatId) || this.state.holders.has(chatId)) return this.ok(src, false);
    const state: DutyState = { ...OFF_DUTY, onDuty: true, departmentId, rankId, since };
    this.update({ kind: 'holdShift', chatId, shift: { src, state } });
    this.steps.push({ kind: 'lapseAfter', chatId, src, ms: leftMs });
    return this.resume(src, player);
  }

  /** A session came in: if its account's shift is held, its profile decides whether the shift goes on. */
  private resume(src: number, player: DutyPlayer | undefined): DutyOutcome | undefined {
    if (!player || this.leaving(src) || !this.state.held.has(player.chatId) || this.session(src).onDuty) {
      return this.ok(src, false);
    }
    // Asked again of the panel: whether the shift goes on, and with which rank, is its say now.
    return this.waitFor({ kind: 'profile', src, refetch: true, resume: { kind: 'profileForResume', src, player } });
  }

  /**
   * The held shift goes on in this session, with no call to the panel, which never ended it: the same department
   * and `since`, and the rank the profile gives (a new rank is sent as reconcile sends one). A profile without the
   * department (or an account the panel no longer knows) ends the shift as reconcile would; no profile at all
   * (the panel could not be asked and nothing is held) keeps it held. Returns whether the session's duty changed.
   */
  private resumeWith({ src, player, profile }: Omit<ProfileForResume, 'kind'>): boolean {
    const { chatId } = player;
    const shift = this.state.held.get(chatId);
    if (!shift || !profile || this.leaving(src) || this.session(src).onDuty) return false;
    const { state } = shift;
    const department =
      profile.kind === 'found' ? profile.departments.find((entry) => entry.id === state.departmentId) : undefined;
    if (!department) {
      const off = this.offOf(chatId, shift);
      this.endHeld(chatId, shift, profile.kind === 'found' ? off : { ...off, body: { chatId } });
      this.steps.push({
        kind: 'log',
        level: 'info',
        message: `the shift of player ${src} held since their game crashed ends: ${profile.kind === 'found' ? `they are no longer a member of department ${state.departmentId}` : 'the panel no longer knows their chat account'}`,
      });
      return false;
    }
    const call = onCallOf(src, player, department);
    this.update({ kind: 'endHeld', chatId });
    this.update({ kind: 'hold', holder: { src, call } });
    const next: DutyState = {
      ...state,
      departmentSlug: department.slug,
      departmentName: department.name,
      rankId: department.rank.id,
    };
    this.transition({
      kind: 'on',
      src,
      chatId,
      previous: this.session(src),
      next,
      department: { ...departmentPayload(department), resumed: true },
    });
    if (next.rankId !== state.rankId && state.since !== null) this.sendApplied(src, call, state.since, false);
    return true;
  }

  /** The resume window of the shift `src` dropped from ran out: the panel learns that it ended. */
  private lapse(chatId: string, src: number): void {
    const shift = this.state.held.get(chatId);
    if (shift?.src !== src) return;
    this.endHeld(chatId, shift, this.offOf(chatId, shift));
    this.steps.push({
      kind: 'log',
      level: 'info',
      message: `the shift of player ${src}, held since their game crashed or timed out, ends: they did not come back within Config.ResumeWindowMs`,
    });
  }

  /**
   * Ends a held shift: with `off` sent (null: an `on` replaced it at the panel), then its crash record goes, and in a
   * community its claim.
   */
  private endHeld(chatId: string, shift: HeldShift, off: OffCall | null): void {
    this.update({ kind: 'endHeld', chatId });
    if (off) this.send(off);
    this.steps.push({ kind: 'heldEnded', chatId, src: shift.src, since: shift.state.since });
  }

  /** The `off` of a held shift, fenced by its claim: it stays the account's owner until the shift ends. */
  private offOf(chatId: string, { src, state }: HeldShift): OffCall {
    const body = state.departmentId === null ? { chatId } : { chatId, departmentId: state.departmentId };
    return { action: 'off', body, fence: this.fenceOf(src, state.since) };
  }

  /** The held shift's `on` again (a restate), fenced by its claim; none when its `on` is not known. */
  private heldShiftCall({ src, state, call }: HeldShift): OnCall | undefined {
    if (!call || state.departmentId === null || state.rankId === null) return undefined;
    const body = { ...call.body, departmentId: state.departmentId, rankId: state.rankId };
    return { action: 'on', body, fence: this.fenceOf(src, state.since) };
  }
}
