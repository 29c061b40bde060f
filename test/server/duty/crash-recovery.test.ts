import { describe, expect, it } from 'vitest';
import { ALEX, JAMIE, LSPD, ONE_DEPARTMENT, ROLES, SAFR, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import type { OutboxRecord } from '../../../server/duty/outbox.js';
import { createMemoryStore } from '../../../server/kernel/storage.js';
import { connect, DUTY_OFF, DUTY_ON, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { createMortalRuntime, elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const CRASH_LINE = 'the last run ended without stopping';
const openSessions = () => mock.panel.controls.sessions().filter((session) => session.endedAt === null);
const panelAnswers = () =>
  mock.panel.controls.requests().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
const keysWith = (store: ReturnType<typeof createMemoryStore>, prefix: string) =>
  [...store.entries.keys()].filter((key) => key.startsWith(prefix));
const keptCalls = (store: ReturnType<typeof createMemoryStore>) =>
  keysWith(store, 'outbox:').map((key) => (JSON.parse(store.get(key) ?? '') as OutboxRecord).call);

/** Alex (7) on duty in LSPD and Jamie (8) in SAFR, then the process dies: no stop(), nothing it started completes. */
async function crashWithTwoOnDuty(store: ReturnType<typeof createMemoryStore>, options = {}) {
  const { runtime, kill } = createMortalRuntime();
  const first = await startBridge(mock.panel, { store, runtime, ...options });
  await connect(first, 7, ALEX);
  await connect(first, 8, JAMIE);
  first.port.requestDuty(7, 1, true, LSPD.id);
  first.port.requestDuty(8, 1, true, SAFR.id);
  await settle();
  expect(openSessions()).toHaveLength(2);
  kill();
  return first;
}

describe('a run that died without onResourceStop', () => {
  it('has every duty it left open ended at the panel by the next start, before any player acts', async () => {
    const store = createMemoryStore();
    await crashWithTwoOnDuty(store);

    const second = await startBridge(mock.panel, { store });

    expect(mock.panel.controls.sessions()).toEqual([
      expect.objectContaining({ chatId: TWO_DEPARTMENTS, departmentId: LSPD.id, endedBy: 'off' }),
      expect.objectContaining({ chatId: ONE_DEPARTMENT, departmentId: SAFR.id, endedBy: 'off' }),
    ]);
    expect(second.port.linesWith(CRASH_LINE)).toEqual([
      'INFO: the last run ended without stopping (a crash?) and left 2 duty(ies) open at the panel; they are ended now',
    ]);
    expect(keysWith(store, 'open-duty')).toEqual([]);
    expect(keysWith(store, 'outbox:')).toEqual([]);
  });

  it('sends the off after the calls that run still had queued for the same account, and only one', async () => {
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const first = await startBridge(mock.panel, { store, runtime, config: { value: { DegradedMode: 'queue' } } });
    await connect(first, 7, ALEX);
    // The panel goes down while Alex waits to go on duty: the duty starts in game, its `on` stays kept.
    mock.panel.controls.setOutage({ mode: 'reset' });
    first.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(3_000);
    expect(first.bridge.duty.state(7).onDuty).toBe(true);
    kill();
    mock.panel.controls.clearFaults();

    const second = await startBridge(mock.panel, { store });
    await settle();

    expect(second.port.linesWith(CRASH_LINE)).toHaveLength(1);
    expect(panelAnswers().filter((answer) => answer.startsWith('POST') && answer.endsWith(' 200'))).toEqual([
      `${DUTY_ON} 200`,
      `${DUTY_OFF} 200`,
    ]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, endedBy: 'off' }),
    ]);
  });

  it('keeps the offs through a panel outage and another crash, and delivers every one when the panel is back', async () => {
    const store = createMemoryStore();
    await crashWithTwoOnDuty(store);
    mock.panel.controls.setOutage({ mode: 'reset' });

    const { runtime, kill } = createMortalRuntime();
    const second = await startBridge(mock.panel, { store, runtime });
    await elapse(30_000);
    expect(second.port.linesWith(CRASH_LINE)).toHaveLength(1);
    expect(openSessions()).toHaveLength(2);
    expect(keysWith(store, 'open-duty')).toEqual([]);
    expect(keptCalls(store)).toEqual([
      { action: 'off', body: { chatId: ONE_DEPARTMENT, departmentId: SAFR.id } },
      { action: 'off', body: { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id } },
    ]);
    kill();

    mock.panel.controls.clearFaults();
    const third = await startBridge(mock.panel, { store });
    await settle();

    expect(third.port.linesWith(CRASH_LINE)).toEqual([]);
    expect(openSessions()).toEqual([]);
    expect(mock.panel.controls.sessions().map((session) => session.endedBy)).toEqual(['off', 'off']);
    expect(keysWith(store, 'outbox:')).toEqual([]);
  });

  it('sets an unreadable ledger record aside with one line naming its key, and still starts and ends the rest', async () => {
    const store = createMemoryStore();
    await crashWithTwoOnDuty(store);
    store.set(`open-duty:${ONE_DEPARTMENT}`, '{"chatId":"1039284756102938475","departmentId":');

    const second = await startBridge(mock.panel, { store });
    await connect(second, 9, JAMIE);
    second.port.requestDuty(9, 1, true, SAFR.id);
    await settle();
    const third = await startBridge(mock.panel, { store });

    const told = [...second.port.lines, ...third.port.lines].filter((line) => line.includes('could not be read'));
    expect(told).toEqual([expect.stringContaining(`open-duty:${ONE_DEPARTMENT}`)]);
    expect(store.get(`open-duty-set-aside:${ONE_DEPARTMENT}`)).toContain('"departmentId":');
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(second.dutyResults(9)).toEqual([[1, expect.objectContaining({ ok: true, onDuty: true })]]);
  });
});

describe('the open duty record', () => {
  it('is in KVP before anything tells the world of the duty: the state bag, events, the client', async () => {
    const store = createMemoryStore();
    const running = await startBridge(mock.panel, { store });
    await connect(running, 7, ALEX);
    const recorded = () => keysWith(store, 'open-duty:').length === 1;
    const seen: string[] = [];
    const { port } = running;
    const emitLocal = port.emitLocal.bind(port);
    const emitClient = port.emitClient.bind(port);
    const setPlayerState = port.setPlayerState.bind(port);
    const note = (what: string) => seen.push(`${what} recorded=${recorded()}`);
    port.emitLocal = (event, ...args) => {
      note(event);
      emitLocal(event, ...args);
    };
    port.emitClient = (event, src, ...args) => {
      note(event);
      emitClient(event, src, ...args);
    };
    port.setPlayerState = (src, key, value) => {
      note(key);
      setPlayerState(src, key, value);
    };

    port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    port.requestDuty(7, 2, false, null);
    await settle();

    expect(seen).toEqual([
      'bridge:duty recorded=true',
      'bridge:server:playerOnDuty recorded=true',
      'bridge:client:deptData recorded=true',
      'bridge:internal:dutyState recorded=true',
      'bridge:internal:dutyResult recorded=true',
      'bridge:duty recorded=false',
      'bridge:server:playerOffDuty recorded=false',
      'bridge:client:offDuty recorded=false',
      'bridge:internal:dutyState recorded=false',
      'bridge:internal:dutyResult recorded=false',
    ]);
  });
});

describe('an orderly restart', () => {
  it('leaves the ledger empty, so the next start sends only the kept offs, as before, and tells of no crash', async () => {
    const store = createMemoryStore();
    const first = await crashWithTwoOnDuty(store);
    first.bridge.stop();
    expect(keysWith(store, 'open-duty')).toEqual([]);

    const second = await startBridge(mock.panel, { store });

    expect(second.port.linesWith(CRASH_LINE)).toEqual([]);
    expect(second.port.linesWith('sending 2 duty change(s) left from the last run')).toHaveLength(1);
    expect(panelAnswers().filter((answer) => answer === `${DUTY_OFF} 200`)).toHaveLength(2);
    expect(openSessions()).toEqual([]);
  });

  it('takes a player who goes off duty out of the ledger, and writes a rank change into it', async () => {
    const store = createMemoryStore();
    const running = await startBridge(mock.panel, { store });
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    expect(JSON.parse(store.get(`open-duty:${TWO_DEPARTMENTS}`) ?? '')).toEqual({
      chatId: TWO_DEPARTMENTS,
      departmentId: LSPD.id,
      rankId: LSPD.sergeant,
      since: expect.any(Number),
      serverId: 7,
    });
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [
      ROLES.lspdMember,
      ROLES.lspdLieutenant,
      ROLES.bcsoMember,
      ROLES.bcsoDeputy,
    ]);
    running.port.requestRefresh(7);
    await settle();
    expect(JSON.parse(store.get(`open-duty:${TWO_DEPARTMENTS}`) ?? '')).toMatchObject({ rankId: LSPD.lieutenant });

    running.port.requestDuty(7, 2, false, null);
    await settle();
    expect(keysWith(store, 'open-duty')).toEqual([]);
  });
});
