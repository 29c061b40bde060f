import { describe, expect, it } from 'vitest';
import { endDutiesLeftOpen, type OpenDuty, OpenDutyLedger } from '../../../server/duty/open-duty-ledger.js';
import { type DutyCall, Outbox, type OutboxRecord } from '../../../server/duty/outbox.js';
import { createLogger } from '../../../server/kernel/log.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import type { PanelResult } from '../../../server/panel/panel-result.js';
import type { DutyResponse } from '../../../shared/contract/index.js';

const ALEX = '284619375016482817';
const JAMIE = '1039284756102938475';
const SINCE = Date.UTC(2025, 5, 1, 20, 0, 0);

const duty = (chatId: string, serverId: number, departmentId = 1, rankId = 2): OpenDuty => ({
  chatId,
  departmentId,
  rankId,
  since: SINCE,
  serverId,
});
const ledgerRecords = (store: ReturnType<typeof createMemoryStore>) =>
  Object.fromEntries([...store.entries].filter(([key]) => key.startsWith('open-duty')));

describe('the open duty ledger', () => {
  it('keeps one record per chat account while on duty, rewritten on a rank change, gone when off duty', () => {
    const store = createMemoryStore();
    const ledger = new OpenDutyLedger(store);

    ledger.opened(duty(ALEX, 7));
    ledger.opened(duty(JAMIE, 8, 3, 7));
    ledger.opened(duty(ALEX, 7, 1, 3));
    expect(ledgerRecords(store)).toEqual({
      [`open-duty:${ALEX}`]: JSON.stringify(duty(ALEX, 7, 1, 3)),
      [`open-duty:${JAMIE}`]: JSON.stringify(duty(JAMIE, 8, 3, 7)),
    });

    ledger.closed(ALEX, 7);
    ledger.closed(JAMIE, 8);
    ledger.closed(ALEX, 9);
    expect(ledgerRecords(store)).toEqual({});
  });

  it('keeps the record of the session that holds the account’s duty when another session goes off duty', () => {
    const store = createMemoryStore();
    const ledger = new OpenDutyLedger(store);
    ledger.opened(duty(ALEX, 7));
    ledger.opened(duty(ALEX, 12, 2, 4));

    ledger.closed(ALEX, 7);

    expect(new OpenDutyLedger(store).leftOver().duties).toEqual([duty(ALEX, 12, 2, 4)]);
  });

  it('gives a new run the duties the previous one left open', () => {
    const store = createMemoryStore();
    const crashed = new OpenDutyLedger(store);
    crashed.opened(duty(ALEX, 7));
    crashed.opened(duty(JAMIE, 8, 3, 7));

    expect(new OpenDutyLedger(store).leftOver()).toEqual({
      duties: [duty(JAMIE, 8, 3, 7), duty(ALEX, 7)],
      setAside: [],
    });
  });

  it.each([
    ['not JSON', '{"chatId":', 'not JSON'],
    ['of the wrong shape', JSON.stringify({ chatId: ALEX, departmentId: 'lspd' }), 'departmentId'],
    ['under another account’s key', JSON.stringify(duty(JAMIE, 8)), 'does not match its key'],
  ])('sets a record %s aside, once, and reads the others', (_what, value, problem) => {
    const store = createMemoryStore();
    store.set(`open-duty:${ALEX}`, value);
    store.set(`open-duty:${'5'.repeat(18)}`, JSON.stringify(duty('5'.repeat(18), 3)));

    const first = new OpenDutyLedger(store).leftOver();
    expect(first.duties).toEqual([duty('5'.repeat(18), 3)]);
    expect(first.setAside).toEqual([
      { key: `open-duty:${ALEX}`, movedTo: `open-duty-set-aside:${ALEX}`, problem: expect.stringContaining(problem) },
    ]);
    expect(store.get(`open-duty-set-aside:${ALEX}`)).toBe(value);
    expect(new OpenDutyLedger(store).leftOver().setAside).toEqual([]);
  });
});

describe('ending the duties a crashed run left open', () => {
  const answered = (call: DutyCall): PanelResult<DutyResponse> => ({
    ok: true,
    status: 200,
    value: {
      ok: true,
      changed: true,
      duty: { chatId: call.body.chatId, onDuty: false, departmentId: null, rankId: null, since: null },
    },
  });

  /** A run of the bridge on `store`; the crashed one's panel never answers, so its calls stay kept. */
  function newRun(store: ReturnType<typeof createMemoryStore>, { panelHangs = false } = {}) {
    const lines: string[] = [];
    const sent: DutyCall[] = [];
    const logger = createLogger({ print: (line) => lines.push(line) });
    const outbox = new Outbox({
      store,
      logger,
      now: () => SINCE,
      sleep: () => new Promise(() => {}),
      panel: {
        setDuty: (async (action: 'on' | 'off', body: DutyCall['body']) => {
          const call = { action, body } as DutyCall;
          sent.push(call);
          return panelHangs ? new Promise(() => {}) : answered(call);
        }) as never,
      },
    });
    return { lines, sent, outbox, logger, ledger: new OpenDutyLedger(store) };
  }

  it('keeps an off per duty in the outbox behind the crashed run’s own kept calls, then clears the ledger', async () => {
    const store = createMemoryStore();
    const crashed = newRun(store, { panelHangs: true });
    crashed.ledger.opened(duty(ALEX, 7, 2, 4));
    crashed.ledger.opened(duty(JAMIE, 8, 3, 7));
    // A call of Alex's the crashed run never got through: an `on` the game had applied while the panel was down.
    crashed.outbox.enqueue(
      { action: 'on', body: { chatId: ALEX, departmentId: 2, rankId: 4, serverId: 7 } },
      { appliedInGame: true },
    );

    const next = newRun(store);
    expect(endDutiesLeftOpen(next.ledger, next.outbox, next.logger)).toBe(2);

    expect(ledgerRecords(store)).toEqual({});
    const kept = [...store.entries]
      .filter(([key]) => key.startsWith('outbox:'))
      .map(([, value]) => JSON.parse(value) as OutboxRecord)
      .sort((a, b) => a.id - b.id)
      .map((record) => record.call);
    expect(kept).toEqual([
      { action: 'on', body: { chatId: ALEX, departmentId: 2, rankId: 4, serverId: 7 } },
      { action: 'off', body: { chatId: JAMIE, departmentId: 3 } },
      { action: 'off', body: { chatId: ALEX, departmentId: 2 } },
    ]);
    expect(next.lines.filter((line) => line.includes('INFO'))).toEqual([
      'INFO: the last run ended without stopping (a crash?) and left 2 duty(ies) open at the panel; they are ended now',
    ]);

    next.outbox.resume();
    await new Promise((resolve) => setImmediate(resolve));
    // Alex's kept `on` first, then one `off`, not two: the recovery's `off` is the account's last call.
    expect(next.sent.filter((call) => call.body.chatId === ALEX).map((call) => call.action)).toEqual(['on', 'off']);
    expect(next.sent.filter((call) => call.body.chatId === JAMIE).map((call) => call.action)).toEqual(['off']);
  });

  it('logs an unreadable record once with its key and still ends the others', () => {
    const store = createMemoryStore();
    store.set(`open-duty:${ALEX}`, 'garbage');
    new OpenDutyLedger(store).opened(duty(JAMIE, 8, 3, 7));

    const next = newRun(store);
    expect(endDutiesLeftOpen(next.ledger, next.outbox, next.logger)).toBe(1);
    const again = newRun(store);
    endDutiesLeftOpen(again.ledger, again.outbox, again.logger);

    expect([...next.lines, ...again.lines].filter((line) => line.includes('could not be read'))).toEqual([
      `ERROR: the open duty record open-duty:${ALEX} could not be read (not JSON); it is set aside as open-duty-set-aside:${ALEX}`,
    ]);
    expect(store.get(`open-duty-set-aside:${ALEX}`)).toBe('garbage');
  });

  it('says nothing and keeps nothing when the last run stopped in order (an empty ledger)', () => {
    const store = createMemoryStore();
    const next = newRun(store);
    expect(endDutiesLeftOpen(next.ledger, next.outbox, next.logger)).toBe(0);
    expect(next.lines).toEqual([]);
    expect([...store.entries.keys()]).toEqual([]);
  });
});
