import { DUTY_STATE_BAG_KEY, type PlayerDuty } from '../../../shared/events.js';
import type { DutyState } from '../../duty/index.js';
import type { BridgeRuntime, Logger, ServerPort } from '../../kernel/index.js';
import { StateBagGuard } from './state-bag-guard.js';

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

/** The bag is the bridge's word on duty; a client's write to its own bag is put back (see StateBagGuard). */
export function guardDutyStateBags(
  port: Pick<ServerPort, 'playerStateWrites' | 'setPlayerState'>,
  runtime: Pick<BridgeRuntime, 'sleep'>,
  logger: Logger,
): StateBagGuard {
  return new StateBagGuard({
    keys: [DUTY_STATE_BAG_KEY],
    writes$: port.playerStateWrites([DUTY_STATE_BAG_KEY]),
    setPlayerState: (src, key, value) => port.setPlayerState(src, key, value),
    later: (work) => void runtime.sleep(0).then(work),
    logger,
  });
}
