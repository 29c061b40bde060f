import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { DutyChange } from '../../../../server/duty/duty-change.js';
import { OFF_DUTY } from '../../../../server/duty/duty-state.js';
import { emitClientDutyEvents } from '../../../../server/duty/effects/client-duty-events.js';
import { createLogger } from '../../../../server/kernel/log.js';
import { type DutyEndReason, type OffDutyReason, PUBLIC_EVENTS } from '../../../../shared/events.js';

// What bridge:client:offDuty promises (OffDutyReason) is what the server sends: every reason but 'dropped', which
// would go to a player who has no client left.
const ON_LSPD = {
  onDuty: true,
  departmentId: 1,
  departmentSlug: 'lspd',
  departmentName: 'LSPD',
  rankId: 2,
  since: 1_000,
};

const offChange = (reason: DutyEndReason): DutyChange => ({
  kind: 'off',
  src: 7,
  chatId: '284619375016482817',
  previous: ON_LSPD,
  next: OFF_DUTY,
  reason,
});

function offDutyEventsFor(reason: DutyEndReason): unknown[][] {
  const sent: unknown[][] = [];
  const changes$ = new Subject<DutyChange>();
  const lines: string[] = [];
  const subscription = emitClientDutyEvents(
    { emitClient: (event, src, ...args) => event === PUBLIC_EVENTS.offDuty && sent.push([src, ...args]) },
    createLogger({ print: (line) => lines.push(line) }),
  )(changes$);
  changes$.next(offChange(reason));
  subscription.unsubscribe();
  expect(lines).toEqual([]);
  return sent;
}

describe("the client's offDuty event", () => {
  const toClient: Record<OffDutyReason, true> = {
    request: true,
    department_removed: true,
    account_removed: true,
    resource_stop: true,
    admin: true,
    replaced: true,
    superseded: true,
    server_shutdown: true,
    kicked: true,
    banned: true,
  };

  it.each(Object.keys(toClient) as OffDutyReason[])('tells the player why, for %s', (reason) => {
    expect(offDutyEventsFor(reason)).toEqual([[7, { departmentId: 1, reason }]]);
  });

  it('is not sent for a player who dropped: the one reason the client types leave out', () => {
    expect(offDutyEventsFor('dropped')).toEqual([]);
  });
});
