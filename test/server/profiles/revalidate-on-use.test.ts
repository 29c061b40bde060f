// Issue 13, item 1: GetDutyOptions() on a client whose profile is older than RefreshIntervalMs sends
// bridge:internal:revalidate; the server fetches the profile again, at most once per interval per player.
import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, LSPD, playerWith, ROLES, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, DUTY_OFF, DUTY_ON, departmentsCall, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const INTERVAL = 300_000;
const gets = (calls: string[]) => calls.filter((call) => call.startsWith('GET'));

describe('revalidation asked for by a client (stale-while-revalidate)', () => {
  it('fetches a profile older than the interval, sends it, and ends a duty the new profile no longer grants', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    // On duty half an interval after the profile was fetched: the profile is stale half an interval before the
    // background revalidation of on-duty players is due, so it is the menu's ask that fetches it.
    await elapse(INTERVAL / 2);
    running.port.requestDuty(7, 1, true, BCSO.id);
    await settle();
    await elapse(INTERVAL / 2 + 1);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);

    running.port.requestRevalidate(7);
    await settle();

    expect(running.calls()).toEqual([
      departmentsCall(TWO_DEPARTMENTS),
      DUTY_ON,
      departmentsCall(TWO_DEPARTMENTS),
      DUTY_OFF,
    ]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({
        ok: true,
        departments: [expect.objectContaining({ id: LSPD.id, rank: { id: LSPD.lieutenant, name: 'Lieutenant' } })],
      }),
    ]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: BCSO.id, reason: 'department_removed' }],
    ]);
  });

  it('ignores asks within the interval for that player, however many a client sends', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(INTERVAL + 1);
    // A script asking every 1.5 s: within the event limit, so only the interval gate stands between it and the panel.
    for (let ask = 0; ask < 199; ask++) {
      running.port.requestRevalidate(7);
      await elapse(1_500);
    }
    await settle();
    expect(gets(running.calls())).toHaveLength(2);
    // Not even the cached profile again: the ready's and the one answer.
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toHaveLength(2);

    await elapse(2_000);
    running.port.requestRevalidate(7);
    await settle();
    expect(gets(running.calls())).toHaveLength(3);
  });

  it('keeps each player to their own interval: one player asking does not spend another one', async () => {
    const running = await startBridge(mock.panel);
    const riley = playerWith('417293856102947583', 'Riley Chen');
    await connect(running, 7, ALEX);
    await connect(running, 8, riley);
    await elapse(INTERVAL + 1);
    running.port.requestRevalidate(7);
    running.port.requestRevalidate(7);
    running.port.requestRevalidate(8);
    await settle();
    expect(gets(running.calls())).toHaveLength(4);
  });

  it('asks the panel nothing for players whose clients do not ask', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    for (let src = 20; src < 40; src++) await connect(running, src, playerWith(`8${String(src).padStart(17, '0')}`));
    // The join fetches are paced over the panel's window.
    await elapse(60_000);
    expect(gets(running.calls())).toHaveLength(21);
    await elapse(3 * INTERVAL);
    await settle();
    expect(gets(running.calls())).toHaveLength(21);
  });

  it('sends a profile still fresh on the server again without a request', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(60_000);
    running.port.requestRevalidate(7);
    await settle();
    expect(gets(running.calls())).toEqual([departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toHaveLength(2);
  });

  it('joins a background refresh already on its way rather than fetching the player twice at once', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await elapse(INTERVAL + 1);
    mock.panel.controls.setLatency(2_000);
    // The client script restarted: its ready gets the stale profile, refreshed in the background.
    running.port.clientReady(7);
    await elapse(500);
    running.port.requestRevalidate(7);
    await elapse(5_000);
    await settle();
    expect(gets(running.calls())).toEqual([departmentsCall(TWO_DEPARTMENTS), departmentsCall(TWO_DEPARTMENTS)]);
  });

  it('does nothing for an ask from a player the bridge does not know', async () => {
    const running = await startBridge(mock.panel);
    running.port.requestRevalidate(42);
    await settle();
    expect(running.calls()).toEqual([]);
    expect(running.bridge.footprint().revalidationAsks).toBe(0);
  });
});

describe('revalidation for a user whose profile answer does not parse', () => {
  it('asks the panel again only once that answer is past its TTL', async () => {
    const running = await startBridge(mock.panel);
    mock.panel.controls.setMalformed({ mode: 'invalid_json', rate: 1 });
    await connect(running, 7, ALEX);
    expect(gets(running.calls())).toHaveLength(1);
    await elapse(INTERVAL + 1);
    running.port.requestRevalidate(7);
    await settle();
    expect(gets(running.calls())).toHaveLength(2);
    await elapse(INTERVAL + 1);
    // The last answer, unreadable, is a minute old at most when asked again: not the case here, so one more.
    running.port.requestRevalidate(7);
    await settle();
    expect(gets(running.calls())).toHaveLength(3);
  });

  it('does not ask within the minute an unreadable answer is kept', async () => {
    const running = await startBridge(mock.panel);
    mock.panel.controls.setMalformed({ mode: 'invalid_json', rate: 1 });
    await connect(running, 7, ALEX);
    await elapse(30_000);
    running.port.requestRevalidate(7);
    await settle();
    expect(gets(running.calls())).toHaveLength(1);
  });
});
