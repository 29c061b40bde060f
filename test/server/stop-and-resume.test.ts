import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, JAMIE, LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../../bench/support/demo-users.js';
import type { OutboxRecord } from '../../server/duty/outbox.js';
import { createMemoryStore } from '../../server/kernel/storage.js';
import { PUBLIC_EVENTS } from '../../shared/events.js';
import { connect, DUTY_OFF, DUTY_ON, startBridge, useMockPanel } from './support/bridge-harness.js';
import { createMortalRuntime, elapse, settle } from './support/virtual-runtime.js';

const mock = useMockPanel();

/** Every request the panel answered in this test, from both runs of the bridge. */
const panelCalls = () => mock.panel.controls.requests().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

const outboxRecords = (store: ReturnType<typeof createMemoryStore>): OutboxRecord[] =>
  [...store.entries]
    .filter(([key]) => key.startsWith('outbox:'))
    .map(([, value]) => JSON.parse(value) as OutboxRecord)
    .sort((a, b) => a.id - b.id);

describe('stopping the resource', () => {
  it('takes every on-duty player off duty in game and keeps the off calls in KVP', async () => {
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const running = await startBridge(mock.panel, { store, runtime });
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    running.port.requestDuty(7, 1, true, LSPD.id);
    running.port.requestDuty(8, 1, true, SAFR.id);
    await settle();

    kill();
    running.bridge.stop();

    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([
      [7, 'resource_stop', false],
      [8, 'resource_stop', false],
    ]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: LSPD.id, reason: 'resource_stop' }],
    ]);
    // Each names its shift's claim: in a community it is sent only while that claim still owns the account.
    expect(outboxRecords(store).map((record) => record.call)).toEqual([
      {
        action: 'off',
        body: { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id },
        fence: { shift: expect.stringMatching(/^7:/) },
      },
      {
        action: 'off',
        body: { chatId: ONE_DEPARTMENT, departmentId: SAFR.id },
        fence: { shift: expect.stringMatching(/^8:/) },
      },
    ]);
  });

  it('sends the kept off calls when the resource starts again on the same KVP', async () => {
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const first = await startBridge(mock.panel, { store, runtime });
    await connect(first, 7, ALEX);
    await connect(first, 8, JAMIE);
    first.port.requestDuty(7, 1, true, LSPD.id);
    first.port.requestDuty(8, 1, true, SAFR.id);
    await settle();
    kill();
    first.bridge.stop();
    await elapse(30_000);
    expect(mock.panel.controls.sessions().filter((session) => session.endedAt === null)).toHaveLength(2);

    const second = await startBridge(mock.panel, { store, connected: { 7: ALEX, 8: JAMIE } });
    await settle();

    expect(second.port.linesWith('sending 2 duty change(s) left from the last run')).toHaveLength(1);
    expect(mock.panel.controls.sessions()).toEqual([
      expect.objectContaining({ chatId: TWO_DEPARTMENTS, endedBy: 'off' }),
      expect.objectContaining({ chatId: ONE_DEPARTMENT, endedBy: 'off' }),
    ]);
    expect(panelCalls().filter((call) => call === `${DUTY_OFF} 200`)).toHaveLength(2);
    expect(outboxRecords(store)).toEqual([]);
  });

  it('replays a player’s kept calls in the order they were made', async () => {
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const first = await startBridge(mock.panel, { store, runtime });
    await connect(first, 7, ALEX);
    first.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.setOutage({ mode: 'reset' });
    first.port.requestDuty(7, 2, false, null);
    await elapse(1_000);
    kill();
    first.bridge.stop();
    mock.panel.controls.clearFaults();

    const second = await startBridge(mock.panel, { store, connected: { 7: ALEX } });
    await settle();
    second.port.requestDuty(7, 1, true, BCSO.id);
    await settle();

    expect(panelCalls().filter((call) => call.startsWith('POST') && call.endsWith(' 200'))).toEqual([
      `${DUTY_ON} 200`,
      `${DUTY_OFF} 200`,
      `${DUTY_ON} 200`,
    ]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, endedBy: 'off' }),
      expect.objectContaining({ departmentId: BCSO.id, endedAt: null }),
    ]);
  });

  it('does not put a player on duty after a restart with an on that was still waiting for the panel', async () => {
    const store = createMemoryStore();
    const { runtime, kill } = createMortalRuntime();
    const first = await startBridge(mock.panel, { store, runtime });
    await connect(first, 7, ALEX);
    mock.panel.controls.setOutage({ mode: 'reset' });
    first.port.requestDuty(7, 1, true, LSPD.id);
    await elapse(2_000);
    kill();
    first.bridge.stop();
    mock.panel.controls.clearFaults();

    const second = await startBridge(mock.panel, { store, connected: { 7: ALEX } });
    await elapse(60_000);

    expect(second.bridge.duty.state(7).onDuty).toBe(false);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).filter((session) => session.endedAt === null)).toEqual([]);
    expect(outboxRecords(store)).toEqual([]);
  });

  it('knows the players already connected when it starts, so their clients get a profile', async () => {
    const running = await startBridge(mock.panel, { connected: { 7: ALEX } });

    running.port.clientReady(7);
    await settle();

    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toEqual([
      [expect.objectContaining({ ok: true, chatId: TWO_DEPARTMENTS })],
    ]);
  });
});
