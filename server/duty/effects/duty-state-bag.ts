import { publishDutyState } from '../../edge/state/bridge-duty-key.js';
import type { StateBagGuard } from '../../edge/state/state-bag-guard.js';
import type { Logger } from '../../kernel/log/logger.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/** Each player's duty on their replicated state bag, through the guard that puts back a client's own writes. */
export const publishDutyStateBags = (stateBags: Pick<StateBagGuard, 'publish'>, logger: Logger): DutyEffect =>
  dutyEffect('state bag', logger, ({ src, next }) =>
    publishDutyState((id, key, value) => stateBags.publish(id, key, value), src, next),
  );
