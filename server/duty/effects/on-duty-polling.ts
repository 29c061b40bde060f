import type { Logger } from '../../kernel/index.js';
import type { OnDutyRevalidation } from '../../profiles/index.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

/** Players on duty have their profile polled, so what the panel changes reaches their duty. */
export const pollOnDutyProfiles = (revalidation: OnDutyRevalidation, logger: Logger): DutyEffect =>
  dutyEffect('profile polling', logger, ({ src, chatId, next }) => revalidation.dutyChanged(src, chatId, next.onDuty));
