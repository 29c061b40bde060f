import type { Logger } from '../../log/logger.js';
import { type DutyEffect, dutyEffect } from './duty-effect.js';

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
