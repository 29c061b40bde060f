// Crash recovery in a community: the last run's open duties are ended only while this server still owns them, and
// nothing is sent while Redis has not answered. Redis is played by the test (what it says, and when it answers); the
// ledger is the real one on an in-memory KVP.
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { LeftOpenOwner } from '../../../server/community/duty-owner-api.js';
import { endDutiesLeftOpen } from '../../../server/duty/crashed-run-recovery.js';
import { type OpenDuty, OpenDutyLedger } from '../../../server/duty/open-duty-ledger.js';
import type { DutyCall } from '../../../server/duty/outbox.js';
import { createLogger } from '../../../server/kernel/log/logger.js';
import { createMemoryStore } from '../../../server/kernel/storage/key-value-store.js';

const ALEX = '284619375016482817';
const JAMIE = '1039284756102938475';
const SINCE = Date.UTC(2025, 5, 1, 20, 0, 0);
const duty = (chatId: string, serverId: number): OpenDuty => ({
  chatId,
  departmentId: 1,
  rankId: 2,
  since: SINCE,
  serverId,
});
const settle = () => new Promise((resolve) => setImmediate(resolve));

function recovering(owners: Record<string, LeftOpenOwner>, redisUp: boolean) {
  const store = createMemoryStore();
  const crashed = new OpenDutyLedger(store);
  crashed.opened(duty(ALEX, 7));
  crashed.opened(duty(JAMIE, 8));
  const ledger = new OpenDutyLedger(store);
  const sent: DutyCall[] = [];
  const kept: DutyCall[] = [];
  const lines: string[] = [];
  const up$ = new BehaviorSubject(redisUp);
  const asked: string[] = [];
  const left = endDutiesLeftOpen(
    ledger,
    {
      enqueue: (call) => {
        sent.push(call);
        return { id: sent.length, result: new Promise(() => {}) };
      },
      keep: (calls) => {
        kept.push(...calls);
      },
    },
    createLogger({ print: (line) => lines.push(line) }),
    {
      up$,
      leftOpen: async (chatId, shift) => {
        asked.push(`${chatId} ${shift}`);
        if (!up$.value) throw new Error('Redis is gone');
        return owners[chatId] ?? { kind: 'nobody' };
      },
    },
  );
  return { left, ledger, store, sent, kept, lines, up$, asked };
}

describe('crash recovery in a community of servers', () => {
  it('ends what this server still owns, leaves what another server took, and says which', async () => {
    const run = recovering({ [ALEX]: { kind: 'ours' }, [JAMIE]: { kind: 'taken', server: '0123456789abcdef' } }, true);
    await settle();

    expect(run.left).toBe(2);
    expect(run.asked.sort()).toEqual([`${JAMIE} 8:${SINCE}`, `${ALEX} 7:${SINCE}`].sort());
    expect(run.sent).toEqual([{ action: 'off', body: { chatId: ALEX, departmentId: 1 } }]);
    expect(run.kept).toEqual([]);
    expect(run.store.keys('open-duty:')).toEqual([]);
    expect(run.lines).toEqual([
      `INFO: the duty of chat account ${JAMIE} the last run left open was taken by server 0123456789abcdef since; it is left alone`,
      'INFO: the last run ended without stopping (a crash?) and left 1 duty(ies) open at the panel that this server still owned; they are ended now',
    ]);
  });

  it('sends nothing and keeps every record while Redis does not answer (one WARN), and settles them when it does', async () => {
    const run = recovering({}, false);
    await settle();
    expect(run.sent).toEqual([]);
    expect(run.store.keys('open-duty:').sort()).toEqual([`open-duty:${ALEX}`, `open-duty:${JAMIE}`].sort());
    expect(run.lines).toEqual([
      'WARN: the last run ended without stopping (a crash?) and left 2 duty(ies) open; they are kept until Redis (BRIDGE_REDIS_URL) answers, so that only those this server still owns are ended',
    ]);

    run.up$.next(true);
    await settle();
    expect(run.sent.map((call) => call.body.chatId).sort()).toEqual([ALEX, JAMIE].sort());
    expect(run.store.keys('open-duty:')).toEqual([]);
    expect(run.lines).toHaveLength(2);
  });

  it('needs no off for an account this run put on duty again before Redis answered', async () => {
    const run = recovering({}, false);
    await settle();
    // Alex joins this server again and goes on duty: this run's record replaces the crashed run's.
    run.ledger.opened({ ...duty(ALEX, 3), since: SINCE + 60_000 });
    run.up$.next(true);
    await settle();

    expect(run.sent.map((call) => call.body.chatId)).toEqual([JAMIE]);
    expect(run.store.keys('open-duty:')).toEqual([`open-duty:${ALEX}`]);
  });
});
