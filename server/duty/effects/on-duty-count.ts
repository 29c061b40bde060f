import { Subscription } from 'rxjs';
import { ON_DUTY_COUNT_KEY, type OnDutyCounts } from '../../../shared/events.js';
import type { Logger } from '../../kernel/index.js';
import type { DutyState } from '../duty-state.js';
import { onDutyByDepartment } from '../on-duty-by-department.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

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
