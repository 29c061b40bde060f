import { type Observable, Subscription } from 'rxjs';
import { INTERNAL_EVENTS, ON_DUTY_COUNT_KEY, type OnDutyCounts, PUBLIC_EVENTS } from '../../shared/events.js';
import type { Integrations } from '../integrations/index.js';
import { eachGuarded, type Logger, type ServerPort } from '../kernel/index.js';
import type { OnDutyRevalidation } from '../profiles/index.js';
import { type DutyChange, type DutyState, departmentOf, snapshotOf } from './duty-model.js';

// What follows each duty change: the console line, the events, the integrations, the on-duty counts and the profile
// polling. The crash record (open-duty-ledger.ts) and the FiveM side (server/edge/duty-effects.ts) are effects too.

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

/** The console line of each duty change. */
export const logDutyChanges = (logger: Logger): DutyEffect =>
  dutyEffect('log line', logger, (change) => {
    const { src } = change;
    if (change.kind === 'on') {
      const { slug, rank } = change.department;
      logger.info(`player ${src} is on duty in department ${slug} as rank ${rank.id}`);
    } else if (change.kind === 'renamed') {
      const { slug, name } = change.department;
      logger.info(`player ${src} stays on duty in department ${change.next.departmentId}, now ${slug} (${name})`);
    } else if (change.kind === 'off') {
      if (change.reason === 'replaced') {
        logger.info(`player ${src} is off duty: their chat account went on duty in another session`);
      } else if (change.reason === 'superseded') {
        logger.info(
          `player ${src} is off duty: once Redis answered again, their chat account's duty turned out to be another server's`,
        );
      }
      logger.info(`player ${src} is off duty (${change.reason})`);
    }
  });

/**
 * What the player's own client learns: the department's data on going on duty or a new rank (`deptData`), why the
 * duty ended (`offDuty`), the bridge's duty state for the client exports, and a notification of a new rank. A
 * player who dropped has no client left to tell.
 */
export const emitClientDutyEvents = (port: Pick<ServerPort, 'emitClient'>, logger: Logger): DutyEffect =>
  dutyEffect('client event', logger, (change) => {
    const { src, next } = change;
    if (change.kind === 'off') {
      if (change.reason === 'dropped') return;
      const departmentId = change.previous.departmentId;
      if (departmentId !== null) port.emitClient(PUBLIC_EVENTS.offDuty, src, { departmentId, reason: change.reason });
    } else {
      port.emitClient(PUBLIC_EVENTS.deptData, src, change.department);
    }
    port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshotOf(next));
    if (change.kind === 'rank') {
      port.emitClient(INTERNAL_EVENTS.notify, src, 'rank_changed', { rank: change.department.rank.name });
    }
  });

/**
 * The public server events other resources listen to: `bridge:server:playerOnDuty`, `…OffDuty`, `…RankChanged` and
 * `…DepartmentRenamed`. A rename has its own event rather than `…RankChanged`: the rank did not change, and a
 * listener that keys anything by slug needs the old and the new one. A new rank and a new slug at once fire both.
 */
export const emitServerDutyEvents = (port: Pick<ServerPort, 'emitLocal'>, logger: Logger): DutyEffect =>
  dutyEffect('server event', logger, (change) => {
    const { src, previous, next } = change;
    if (change.kind === 'on') {
      port.emitLocal(
        PUBLIC_EVENTS.playerOnDuty,
        src,
        next.departmentId,
        next.rankId,
        change.department.resumed === true,
      );
    } else if (change.kind === 'off') {
      port.emitLocal(PUBLIC_EVENTS.playerOffDuty, src, change.reason, change.resumable === true);
    } else {
      if (change.kind === 'rank') port.emitLocal(PUBLIC_EVENTS.playerRankChanged, src, next.departmentId, next.rankId);
      if (change.kind === 'renamed' || next.departmentSlug !== previous.departmentSlug) {
        const { departmentId, departmentSlug } = next;
        port.emitLocal(
          PUBLIC_EVENTS.playerDepartmentRenamed,
          src,
          departmentId,
          departmentSlug,
          previous.departmentSlug,
        );
      }
    }
  });

/** The job frameworks and rcore_police hear of every duty change; going off duty, of the department that ended. */
export const tellIntegrations = (integrations: Pick<Integrations, 'dutyChanged'>, logger: Logger): DutyEffect =>
  dutyEffect('integrations', logger, (change) => {
    const { src, next } = change;
    integrations.dutyChanged({
      src,
      onDuty: next.onDuty,
      departmentId: departmentOf(change),
      departmentSlug: next.departmentSlug,
      rankId: next.rankId,
      ...(change.kind === 'off' ? { reason: change.reason } : {}),
    });
  });

export interface OnDutyCountDeps {
  /** The players on duty, as the duty has them once a change is applied. */
  onDutyPlayers(): ReadonlyArray<readonly [number, DutyState]>;
  /** A replicated GlobalState key. */
  setGlobalState(key: string, value: unknown): void;
  /** Told each value set: the community's count adds it up with the other servers'. */
  counted?(counts: OnDutyCounts): void;
}

/**
 * `GlobalState['bridge:onDutyCount']`, so a robbery script reads how many are on duty without calling an export
 * every frame: set when the bridge starts (nobody is on duty then) and after every change that moves a count. A rank
 * change moves none, and an unchanged value is not set again (it would replicate nothing anyway).
 */
export const publishOnDutyCounts =
  (deps: OnDutyCountDeps, logger: Logger): DutyEffect =>
  (changes$) => {
    let published = '';
    const publish = () => {
      const onDuty = deps.onDutyPlayers();
      const byDepartment = onDutyByDepartment(onDuty);
      // A department whose slug is `total` is left out (it would hide the total); GetOnDutyCount('total') has it.
      const counts: OnDutyCounts = { ...byDepartment, total: onDuty.length };
      const text = JSON.stringify(counts);
      if (text === published) return;
      if (byDepartment.total !== undefined) {
        logger.once(
          'on-duty-count-total',
          'warn',
          `a department's slug is "total": ${ON_DUTY_COUNT_KEY}.total is everyone on duty, so that department's count is only in GetOnDutyCount('total')`,
        );
      }
      deps.setGlobalState(ON_DUTY_COUNT_KEY, counts);
      published = text;
      deps.counted?.(counts);
    };
    const subscription = new Subscription();
    try {
      publish();
    } catch (error) {
      logger.error(`the on-duty count could not be published: ${String(error)}`);
    }
    subscription.add(dutyEffect('on-duty count', logger, publish)(changes$));
    return subscription;
  };

/** Players on duty per department slug (the department's id when its slug is unknown). */
export function onDutyByDepartment(onDuty: ReadonlyArray<readonly [number, DutyState]>): Record<string, number> {
  // Without a prototype: a slug is the panel's text, and `__proto__` must count like any other.
  const counts: Record<string, number> = Object.create(null);
  for (const [, state] of onDuty) {
    const department = state.departmentSlug ?? String(state.departmentId);
    counts[department] = (counts[department] ?? 0) + 1;
  }
  return counts;
}

/** Players on duty have their profile polled, so what the panel changes reaches their duty. */
export const pollOnDutyProfiles = (revalidation: OnDutyRevalidation, logger: Logger): DutyEffect =>
  dutyEffect('profile polling', logger, ({ src, chatId, next }) => revalidation.dutyChanged(src, chatId, next.onDuty));
