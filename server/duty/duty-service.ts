import {
  catchError,
  defer,
  EMPTY,
  filter,
  type Observable,
  queueScheduler,
  Subject,
  type Subscription,
  take,
} from 'rxjs';
import type { DegradedMode } from '../../shared/config/index.js';
import type { Department } from '../../shared/contract/index.js';
import { panelPlayerName } from '../../shared/contract/player-name.js';
import type { DeptDataPayload, DutyOutcome, OffDutyReason } from '../../shared/events.js';
import type { Logger } from '../log/logger.js';
import type { PanelFailure } from '../panel/panel-result.js';
import type { ProfileEntry } from '../profiles/profile-cache.js';
import { concatMapPerKey } from '../streams/concat-map-per-key.js';
import type { DutyChange } from './duty-change.js';
import { type DutyState, OFF_DUTY } from './duty-state.js';
import type { DeliveryResult, DutyCall, Outbox } from './outbox.js';

export type DutyIntent =
  | { kind: 'on'; src: number; departmentId: number; reply?: (outcome: DutyOutcome) => void }
  | { kind: 'off'; src: number; reason: OffDutyReason; reply?: (outcome: DutyOutcome) => void }
  /** A refreshed profile: a removed department ends the duty, a new rank replaces the old one. */
  | { kind: 'reconcile'; src: number; profile: ProfileEntry }
  /**
   * The panel refused an `on` the game had already applied: one sent while it was unreachable (degraded mode
   * `queue`), or the new rank of a player on duty.
   */
  | {
      kind: 'queuedOnRefused';
      src: number;
      departmentId: number;
      since: number;
      failure: PanelFailure;
      retried: boolean;
    };

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

export interface DutyServiceOptions {
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

/** What the duty service holds about players right now; all zero once everyone has left. */
export interface DutyFootprint {
  /** Chat accounts (or server ids without one) with intents queued or running. */
  lanes: number;
  states: number;
  holders: number;
  leaving: number;
}

/** The session holding a chat account's duty, and the `on` that made it so (to assert it again at the panel). */
interface Holder {
  src: number;
  call: Extract<DutyCall, { action: 'on' }>;
}

/**
 * Duty of every player as one stream of intents, handled one at a time per chat account, so double or concurrent
 * requests can never produce two `on` calls or an interleaving, and a session that reconnects waits behind the
 * calls its ghost still has running; accounts do not wait for each other.
 *
 * At most one session per chat account is on duty, since the panel keeps one duty per account: a session going
 * on duty takes the account's other session off duty in game (`replaced`), without an `off` to the panel, which
 * the new `on` supersedes. An `off` from a session that does not hold the account's duty never reaches the panel.
 */
export class DutyService {
  private readonly intents = new Subject<DutyIntent>();
  private readonly states = new Map<number, DutyState>();
  /** The players on duty, kept until a duty changes: exports list them far more often than duties change. */
  private onDuty: ReadonlyArray<readonly [number, DutyState]> | undefined;
  private readonly holders = new Map<string, Holder>();
  /** Sessions that dropped: they never go on duty again, and an `on` of theirs still waiting is given up. */
  private readonly leaving = new Set<number>();
  private readonly left$ = new Subject<number>();
  private readonly lanes = { open: 0 };
  private readonly subscription: Subscription;
  private readonly changes = new Subject<DutyChange>();
  /** Every transition of a player's duty, in the order they happen; the effects subscribe to it. */
  readonly dutyChanges$: Observable<DutyChange> = this.changes.asObservable();

  constructor(private readonly options: DutyServiceOptions) {
    this.subscription = this.intents
      .pipe(
        concatMapPerKey(
          (intent) => this.accountOf(intent.src),
          (intent) =>
            defer(() => this.handle(intent)).pipe(
              catchError((error: unknown) => {
                options.logger.error(`duty ${intent.kind} of player ${intent.src} failed: ${String(error)}`);
                if (intent.kind === 'on' || intent.kind === 'off') {
                  intent.reply?.(refuse('invalid_request', 'internal error'));
                }
                return EMPTY;
              }),
            ),
          this.lanes,
        ),
      )
      .subscribe();
  }

  submit(intent: DutyIntent): void {
    this.intents.next(intent);
  }

  /** Submits and waits for the outcome. */
  request(intent: Extract<DutyIntent, { kind: 'on' | 'off' }>): Promise<DutyOutcome> {
    return new Promise((resolve) => {
      this.submit({ ...intent, reply: resolve });
    });
  }

  state(src: number): DutyState {
    return this.states.get(src) ?? OFF_DUTY;
  }

  /** The same array until a duty changes (never modified: a change makes a new one). */
  onDutyPlayers(): ReadonlyArray<readonly [number, DutyState]> {
    this.onDuty ??= [...this.states.entries()].filter(([, state]) => state.onDuty);
    return this.onDuty;
  }

  private setState(src: number, state: DutyState): void {
    this.states.set(src, state);
    this.onDuty = undefined;
  }

  /**
   * Tells the effects. Through the queue scheduler's trampoline: a change an effect causes at once (an integration
   * taking another player off duty) is announced after every effect has heard of the current one, so each effect sees
   * the changes in the order they happened. Still synchronous from the outside: at resource stop it all runs now.
   */
  private announce(change: DutyChange): void {
    queueScheduler.schedule(() => this.changes.next(change));
  }

  /**
   * Takes a player off duty at once, without waiting in their queue: for a resource that is stopping, where no
   * asynchronous work will complete. The `off` call is persisted and sent by the next start if need be.
   */
  forceOffNow(src: number, reason: OffDutyReason): void {
    const state = this.state(src);
    const player = this.options.player(src);
    if (!state.onDuty || state.departmentId === null || !player) return;
    this.goOff(src, player, state.departmentId, reason);
  }

  /**
   * A session dropped: a call of theirs still waiting for the panel is given up at once and their duty ends.
   * Resolves once that is done. The session stays marked as leaving until `forget`, which the caller runs once the
   * player is gone from everywhere else: until then a request for it (an export, a late net event) is refused
   * instead of putting a player who left on duty.
   */
  async leave(src: number): Promise<void> {
    this.leaving.add(src);
    this.left$.next(src);
    await this.request({ kind: 'off', src, reason: 'dropped' });
  }

  forget(src: number): void {
    if (this.states.delete(src)) this.onDuty = undefined;
    this.leaving.delete(src);
    for (const [chatId, holder] of this.holders) if (holder.src === src) this.holders.delete(chatId);
  }

  footprint(): DutyFootprint {
    return {
      lanes: this.lanes.open,
      states: this.states.size,
      holders: this.holders.size,
      leaving: this.leaving.size,
    };
  }

  stop(): void {
    this.subscription.unsubscribe();
  }

  /** A player without a chat account cannot go on duty; their intents get a lane of their own. */
  private accountOf(src: number): string {
    return this.options.player(src)?.chatId ?? `server id ${src}`;
  }

  private async handle(intent: DutyIntent): Promise<void> {
    if (intent.kind === 'reconcile') return this.reconcile(intent.src, intent.profile);
    if (intent.kind === 'queuedOnRefused') return this.queuedOnRefused(intent);
    const outcome =
      intent.kind === 'on' ? await this.on(intent.src, intent.departmentId) : this.off(intent.src, intent.reason);
    intent.reply?.(outcome);
  }

  private ok(src: number, changed: boolean): DutyOutcome {
    const { onDuty, departmentId, rankId, since } = this.state(src);
    return { ok: true, changed, onDuty, departmentId, rankId, since };
  }

  private get panelDown(): boolean {
    return this.options.panel?.isOpen ?? false;
  }

  private async on(src: number, departmentId: number): Promise<DutyOutcome> {
    if (this.leaving.has(src)) return LEFT;
    const player = this.options.player(src);
    if (!player) return refuse('profile_unavailable', 'the player has no linked chat account');
    const current = this.state(src);
    if (current.onDuty && current.departmentId === departmentId) return this.ok(src, false);

    let profile = await this.options.profile(src, false);
    for (let attempt = 1; ; attempt++) {
      if (this.leaving.has(src)) return LEFT;
      if (profile?.kind !== 'found') {
        return refuse('profile_unavailable', 'your departments could not be loaded');
      }
      const department = profile.departments.find((entry) => entry.id === departmentId);
      if (!department) return refuse('not_member', `you are not a member of department ${departmentId}`);
      const call = this.onCall(src, player, department);

      // Known to be down: answer now instead of waiting out a timeout.
      if (this.panelDown) {
        if (this.options.degradedMode !== 'queue') {
          return refuse('panel_unavailable', 'the panel is unreachable; going on duty works again once it answers');
        }
        this.switchAwayFrom(src, player, departmentId);
        const { result } = this.options.outbox.enqueue(call, { appliedInGame: true });
        this.applyQueued(src, department, call, result);
        return this.ok(src, true);
      }

      this.switchAwayFrom(src, player, departmentId);
      const { id, result } = this.options.outbox.enqueue(call);
      const delivery = await this.waitForDelivery(src, result);
      if (delivery === 'left' || this.leaving.has(src)) {
        // Never on duty in game; the panel must not keep a duty that no session has.
        const undo = this.undoOf(src, call);
        if (typeof delivery !== 'object' || delivery.kind === 'withdrawn') this.options.outbox.withdraw(id, undo);
        else if (delivery.kind === 'delivered' && undo) this.options.outbox.enqueue(undo);
        return LEFT;
      }
      if (delivery === 'panel_down') {
        // The panel went down while the player waited: in `queue` mode the duty starts now, the call stays queued.
        this.options.outbox.markApplied(id);
        this.applyQueued(src, department, call, result);
        return this.ok(src, true);
      }
      if (delivery === undefined || delivery.kind === 'withdrawn') {
        this.options.outbox.withdraw(id, this.undoOf(src, call));
        return refuse('panel_unavailable', 'the panel did not answer; try again in a moment');
      }
      if (delivery.kind === 'refused') {
        // The panel knows the player's roles better than our cache: after a promotion or a role change, fetch
        // the profile again and try once more with what it says.
        if (attempt === 1 && STALE_PROFILE_CODES.has(String(delivery.failure.code))) {
          profile = await this.options.profile(src, true);
          continue;
        }
        // The panel said it holds a duty the game did not ask for: the account's duty there goes back to what the
        // game has.
        if (delivery.failure.kind === 'contradicted') this.options.outbox.enqueue(this.accountAsInGame(src, call));
        return refuse('panel_refused', `the panel refused: ${delivery.failure.message}`);
      }
      this.start(src, department, call);
      return this.ok(src, true);
    }
  }

  /**
   * What ends at the panel an `on` the game did not apply: an `off`, unless another session of the account holds
   * the duty by then; that session's duty is then sent again (the `on` replaced it at the panel), or nothing when
   * the `on` asked for the very same duty.
   */
  private undoOf(src: number, call: Extract<DutyCall, { action: 'on' }>): DutyCall | null {
    const { chatId, departmentId } = call.body;
    const held = this.heldDutyCall(chatId, src);
    if (!held) return { action: 'off', body: { chatId, departmentId } };
    if (held.body.departmentId === departmentId && held.body.rankId === call.body.rankId) return null;
    return held;
  }

  /**
   * The call that makes the account's duty at the panel what the game has, whatever the panel holds now: another
   * session's duty sent again, or an `off` naming no department, which ends any duty of the account.
   */
  private accountAsInGame(src: number, call: Extract<DutyCall, { action: 'on' }>): DutyCall {
    return this.heldDutyCall(call.body.chatId, src) ?? { action: 'off', body: { chatId: call.body.chatId } };
  }

  /** The `on` of the duty another session of the account holds in game, if one does. */
  private heldDutyCall(chatId: string, exceptSrc: number): Extract<DutyCall, { action: 'on' }> | undefined {
    const holder = this.holders.get(chatId);
    const held = holder && holder.src !== exceptSrc ? this.state(holder.src) : undefined;
    if (!holder || !held?.onDuty || held.departmentId === null || held.rankId === null) return undefined;
    return { action: 'on', body: { ...holder.call.body, departmentId: held.departmentId, rankId: held.rankId } };
  }

  private onCall(src: number, player: DutyPlayer, department: Department) {
    return {
      action: 'on' as const,
      body: {
        chatId: player.chatId,
        departmentId: department.id,
        rankId: department.rank.id,
        serverId: src,
        playerName: panelPlayerName(player.name),
      },
    };
  }

  /** Going on duty for another department while on duty is off, then on. */
  private switchAwayFrom(src: number, player: DutyPlayer, departmentId: number): void {
    const onDuty = this.state(src);
    if (onDuty.onDuty && onDuty.departmentId !== null && onDuty.departmentId !== departmentId) {
      this.goOff(src, player, onDuty.departmentId, 'request');
    }
  }

  /**
   * The delivery, or undefined once the player has waited long enough, or `panel_down` when the panel stops
   * answering meanwhile and degraded mode `queue` lets the duty start without it.
   */
  private async waitForDelivery(
    src: number,
    result: Promise<DeliveryResult>,
  ): Promise<DeliveryResult | 'panel_down' | 'left' | undefined> {
    const subscriptions: Subscription[] = [];
    const when = <V>(signal$: Observable<unknown>, value: V) =>
      new Promise<V>((resolve) => {
        subscriptions.push(signal$.pipe(take(1)).subscribe(() => resolve(value)));
      });
    const waited = this.options.sleep(this.options.onDutyWaitMs).then(() => undefined);
    const racers: Array<Promise<DeliveryResult | 'panel_down' | 'left' | undefined>> = [
      result,
      waited,
      when(this.left$.pipe(filter((leaver) => leaver === src)), 'left' as const),
    ];
    const panel = this.options.panel;
    if (this.options.degradedMode === 'queue' && panel) racers.push(when(panel.unreachable$, 'panel_down' as const));
    try {
      return await Promise.race(racers);
    } finally {
      for (const subscription of subscriptions) subscription.unsubscribe();
    }
  }

  private start(src: number, department: Department, call: Extract<DutyCall, { action: 'on' }>): DutyState {
    const holder = this.holders.get(call.body.chatId);
    if (holder && holder.src !== src) this.replace(holder.src);
    const previous = this.state(src);
    this.holders.set(call.body.chatId, { src, call });
    const state: DutyState = {
      onDuty: true,
      departmentId: department.id,
      departmentSlug: department.slug,
      rankId: department.rank.id,
      since: this.options.now(),
    };
    this.setState(src, state);
    const { chatId } = call.body;
    this.announce({ kind: 'on', src, chatId, previous, next: state, department: departmentPayload(department) });
    return state;
  }

  /**
   * Another session of the account went on duty: this one goes off duty in game only. A session that is leaving
   * meanwhile has no client left to tell: it went off duty by dropping.
   */
  private replace(src: number): void {
    const previous = this.state(src);
    this.setState(src, OFF_DUTY);
    if (!previous.onDuty || previous.departmentId === null) return;
    const reason = this.leaving.has(src) ? 'dropped' : 'replaced';
    const chatId = this.options.player(src)?.chatId;
    this.announce({ kind: 'off', src, chatId, previous, next: OFF_DUTY, reason });
  }

  /** On duty in game while the `on` waits in the outbox; a later refusal by the panel undoes it. */
  private applyQueued(
    src: number,
    department: Department,
    call: Extract<DutyCall, { action: 'on' }>,
    result: Promise<DeliveryResult>,
    retried = false,
  ): void {
    const state = this.start(src, department, call);
    this.options.logger.info(
      `player ${src} is on duty in department ${department.slug} while the panel is unreachable; the panel learns it once it answers`,
    );
    if (state.since !== null)
      this.whenRefused(result, { src, departmentId: department.id, since: state.since, retried });
  }

  /** Sends an `on` the game has already applied; a refusal comes back as `queuedOnRefused`. */
  private sendApplied(src: number, call: Extract<DutyCall, { action: 'on' }>, since: number, retried: boolean): void {
    const { result } = this.options.outbox.enqueue(call, { appliedInGame: true });
    this.whenRefused(result, { src, departmentId: call.body.departmentId, since, retried });
  }

  /** The duty the game applied before the panel had its `on` is undone, or retried, when the panel refuses it. */
  private whenRefused(
    result: Promise<DeliveryResult>,
    applied: Omit<Extract<DutyIntent, { kind: 'queuedOnRefused' }>, 'kind' | 'failure'>,
  ): void {
    void result.then((delivery) => {
      if (delivery.kind === 'refused') this.submit({ kind: 'queuedOnRefused', ...applied, failure: delivery.failure });
    });
  }

  /** The game takes the rank the panel now gives the player in the department they are on duty in. */
  private setRank(src: number, state: DutyState, department: Department): void {
    const next: DutyState = { ...state, rankId: department.rank.id };
    this.setState(src, next);
    const chatId = this.options.player(src)?.chatId;
    this.announce({ kind: 'rank', src, chatId, previous: state, next, department: departmentPayload(department) });
  }

  private async queuedOnRefused(intent: Extract<DutyIntent, { kind: 'queuedOnRefused' }>): Promise<void> {
    const { src, departmentId, since, failure } = intent;
    const state = this.state(src);
    const player = this.options.player(src);
    // The player has moved on since (off duty, another department, another session): nothing to undo.
    if (!player || !state.onDuty || state.departmentId !== departmentId || state.since !== since) return;
    if (!intent.retried && STALE_PROFILE_CODES.has(String(failure.code))) {
      const profile = await this.options.profile(src, true);
      const department = profile?.kind === 'found' ? profile.departments.find((d) => d.id === departmentId) : undefined;
      if (department) {
        const call = this.onCall(src, player, department);
        if (this.holders.get(player.chatId)?.src === src) this.holders.set(player.chatId, { src, call });
        this.sendApplied(src, call, since, true);
        if (department.rank.id !== state.rankId) this.setRank(src, state, department);
        return;
      }
    }
    this.options.logger.warn(
      `the panel refused the duty of player ${src} in department ${departmentId} that the game had already applied (${failure.code ?? failure.kind}); they go off duty`,
    );
    // The refused `on` did not replace at the panel the duty it replaced in game (another session's, or this
    // session's previous department): the `off` ends whatever duty the account still has there.
    this.goOff(src, player, departmentId, 'department_removed', 'account');
  }

  private off(src: number, reason: OffDutyReason): DutyOutcome {
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
    reason: OffDutyReason,
    ends: 'department' | 'account' = 'department',
  ): void {
    if (this.holders.get(player.chatId)?.src === src) {
      this.holders.delete(player.chatId);
      const { chatId } = player;
      this.options.outbox.enqueue({ action: 'off', body: ends === 'account' ? { chatId } : { chatId, departmentId } });
    }
    const previous = this.state(src);
    this.setState(src, OFF_DUTY);
    this.announce({ kind: 'off', src, chatId: player.chatId, previous, next: OFF_DUTY, reason });
  }

  private reconcile(src: number, asked: ProfileEntry): void {
    const state = this.state(src);
    if (!state.onDuty || state.departmentId === null) return;
    const profile = this.options.latestProfile?.(src) ?? asked;
    const department =
      profile.kind === 'found' ? profile.departments.find((d) => d.id === state.departmentId) : undefined;
    const player = this.options.player(src);
    if (!department) {
      if (player) this.goOff(src, player, state.departmentId, 'department_removed');
      return;
    }
    if (department.rank.id !== state.rankId && player) this.changeRank(src, player, state, department);
  }

  /**
   * The panel keeps a duty per department and rank: a new rank is a new session there, so the game applies it at
   * once and the panel gets an `on` with it, in order with the account's other calls. A refusal (the rank changed
   * again meanwhile) fetches the profile once and sends what it says; refused again, the player goes off duty.
   */
  private changeRank(src: number, player: DutyPlayer, state: DutyState, department: Department): void {
    this.setRank(src, state, department);
    if (this.holders.get(player.chatId)?.src !== src || state.since === null) return;
    const call = this.onCall(src, player, department);
    this.holders.set(player.chatId, { src, call });
    this.sendApplied(src, call, state.since, false);
  }
}
