import type { Integrations } from '../../integrations/index.js';
import type { Logger } from '../../kernel/index.js';
import { departmentOf } from '../duty-change.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

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
