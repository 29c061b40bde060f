import type { Subscription } from 'rxjs';
import type { Outbox } from '../duty/index.js';
import type { DutyOwners } from './duty-owner-api.js';

/**
 * Peers end a crashed server's shifts (issue 30): a server whose liveness lapsed was taken by this one, atomically, so
 * each of its duties is ended at the panel from here. Each `off` goes through this server's outbox (kept in its KVP,
 * at duty priority), fenced by the lapsed server's claim: it is sent only while that claim still owns the account and
 * that server is still gone. An `on` it sent that died with it before it was claimed is ended unclaimed: only while
 * no live claim holds the account, and that server is still gone.
 */
export const endLapsedServersDuties = (
  owners: Pick<DutyOwners, 'lapsed$'>,
  outbox: Pick<Outbox, 'enqueue'>,
): Subscription =>
  owners.lapsed$.subscribe(({ server, duties }) => {
    for (const { chatId, shift, departmentId } of duties) {
      const body = departmentId === undefined ? { chatId } : { chatId, departmentId };
      void outbox.enqueue({
        action: 'off',
        body,
        fence: shift === undefined ? { unclaimed: true, server } : { shift, server },
      });
    }
  });
