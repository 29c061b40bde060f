import { DUTY_STATE_BAG_KEY, type PlayerDuty } from '../../shared/events.js';
import type { DutyState } from '../duty/duty-state.js';

export const playerDutyOf = ({ onDuty, departmentId, departmentSlug, rankId, since }: DutyState): PlayerDuty => ({
  onDuty,
  departmentId,
  departmentSlug,
  rankId,
  since,
});

/**
 * Publishes a player's duty on their replicated state bag (`Player(src).state['bridge:duty']`), so any resource on
 * either side reads it without an export.
 */
export function publishDutyState(
  setPlayerState: (src: number, key: string, value: unknown) => void,
  src: number,
  state: DutyState,
): void {
  setPlayerState(src, DUTY_STATE_BAG_KEY, playerDutyOf(state));
}
