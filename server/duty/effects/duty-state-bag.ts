import type { StateBagGuard } from '../../edge/index.js';
import { publishDutyState } from '../../edge/index.js';
import type { Logger } from '../../kernel/index.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/** Each player's duty on their replicated state bag, through the guard that puts back a client's own writes. */
export const publishDutyStateBags = (stateBags: Pick<StateBagGuard, 'publish'>, logger: Logger): DutyEffect =>
  dutyEffect('state bag', logger, ({ src, next }) =>
    publishDutyState((id, key, value) => stateBags.publish(id, key, value), src, next),
  );
