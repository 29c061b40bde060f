import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, JAMIE, LSPD, ONE_DEPARTMENT, ROLES, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { population } from '../../../bench/support/population.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../shared/events.js';
import {
  connect,
  DUTY_OFF,
  DUTY_ON,
  departmentsCall,
  type RunningBridge,
  startBridge,
  useMockPanel,
} from '../support/bridge-harness.js';
import { elapse, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const FIVE_MINUTES = 300_000;
const fetchesOf = (running: RunningBridge, chatId: string) =>
  running.calls().filter((call) => call === departmentsCall(chatId)).length;

/** Alex, on duty in LSPD as sergeant, is made lieutenant at the panel and runs /dutyrefresh. */
async function promotedThenRefreshed(running: RunningBridge): Promise<void> {
  mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
  running.port.requestRefresh(7);
  await settle();
}

const expectPanelDutyAsLieutenant = () =>
  expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).at(-1)).toMatchObject({
    rankId: LSPD.lieutenant,
    endedBy: null,
  });

/** A bridge with Alex (player 7) on duty in LSPD as sergeant. */
async function alexOnDutyInLspd(): Promise<RunningBridge> {
  const running = await startBridge(mock.panel);
  await connect(running, 7, ALEX);
  await onDuty(running, 7, LSPD.id);
  return running;
}

async function onDuty(running: RunningBridge, src: number, departmentId: number): Promise<void> {
  running.port.requestDuty(src, 1, true, departmentId);
  await settle();
  expect(running.bridge.duty.state(src)).toMatchObject({ onDuty: true, departmentId });
}

describe('on-duty players are revalidated in the background', () => {
  it('fetches an on-duty player’s profile every interval and never polls a player off duty', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    await onDuty(running, 7, LSPD.id);

    await elapse(FIVE_MINUTES - 1_000);
    expect(fetchesOf(running, TWO_DEPARTMENTS)).toBe(1);
    await elapse(30 * 60_000 - FIVE_MINUTES + 2_000);

    // The join's fetch, then one at each of minutes 5, 10, ... 30.
    expect(fetchesOf(running, TWO_DEPARTMENTS)).toBe(7);
    expect(fetchesOf(running, ONE_DEPARTMENT)).toBe(1);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile)).toHaveLength(7);
    expect(running.bridge.footprint().onDutyRevalidation).toBe(1);
  });

  it('counts a refresh asked for meanwhile as the interval’s fetch instead of adding one', async () => {
    const running = await alexOnDutyInLspd();
    await elapse(3 * 60_000);
    running.port.requestRefresh(7);
    await settle();

    // Not at minute 5: the profile is fresh until minute 8.
    await elapse(FIVE_MINUTES - 1_000);
    expect(fetchesOf(running, TWO_DEPARTMENTS)).toBe(2);
    await elapse(2_000);
    expect(fetchesOf(running, TWO_DEPARTMENTS)).toBe(3);
    await elapse(FIVE_MINUTES);
    expect(fetchesOf(running, TWO_DEPARTMENTS)).toBe(4);
  });

  it('waits in the member-refresh class while nothing interactive waits, and stays within the panel’s limit', async () => {
    const users = population(10, { memberEvery: 1 });
    const panel = mock.replace({ data: users.data, rateLimit: { limit: 20, windowMs: 60_000 } });
    const running = await startBridge(panel);
    for (const [index, member] of users.members.entries()) await connect(running, index + 1, member.player);
    await elapse(60_000);
    for (const [index, member] of users.members.entries()) {
      running.port.requestDuty(index + 1, 1, true, member.department?.id);
    }
    await elapse(60_000);
    expect(running.bridge.duty.onDutyPlayers()).toHaveLength(10);

    // The ten polls come due within seconds of each other, five minutes after the duties began: sampled every second
    // while they wait.
    await elapse(3 * 60_000);
    const queued: string[] = [];
    for (let second = 0; second < 180; second++) {
      const [line] = running.port.runCommand('bridge status').filter((text) => text.startsWith('queues'));
      if (line && !line.includes('member-refresh 0')) queued.push(line);
      await elapse(1_000);
    }
    expect(queued.length).toBeGreaterThan(0);
    for (const line of queued)
      expect(line).toMatch(/duty 0, waiting 0, join 0, member-refresh [1-9]\d*, other-refresh 0/);

    await elapse(30 * 60_000);
    const requests = panel.controls.requests();
    expect(requests.filter((entry) => entry.status === 429)).toEqual([]);
    for (const member of users.members) expect(fetchesOf(running, member.chatId)).toBeGreaterThanOrEqual(7);
  });
});

describe('what the panel changed reaches a duty within one interval', () => {
  it('ends the duty of a player whose department was removed, and tells the panel', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await onDuty(running, 7, BCSO.id);
    await elapse(60_000);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdSergeant]);

    await elapse(FIVE_MINUTES - 62_000);
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
    await elapse(3_000);

    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'department_removed', false]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: BCSO.id, reason: 'department_removed' }],
    ]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON, DUTY_OFF]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: BCSO.id, endedBy: 'off' }),
    ]);
    expect(running.bridge.footprint().onDutyRevalidation).toBe(0);
  });

  it('ends the duty of a player whose chat account the panel deleted, and takes its 404 to the off as the end', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await onDuty(running, 7, LSPD.id);
    await elapse(60_000);
    const linesBefore = running.port.lines.length;
    expect(mock.panel.controls.deleteUser(TWO_DEPARTMENTS)).not.toBeNull();

    await elapse(FIVE_MINUTES - 62_000);
    expect(running.bridge.duty.state(7).onDuty).toBe(true);
    await elapse(3_000);

    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: false, departmentId: null, departmentSlug: null });
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'account_removed', false]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: LSPD.id, reason: 'account_removed' }],
    ]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({ ok: false, error: 'not_registered' }),
    ]);
    // The off reached the panel once; its 404 `user_not_found` ends it: nothing is kept or sent again.
    await elapse(30 * 60_000);
    expect(running.answers().filter((answer) => answer.startsWith('POST'))).toEqual([
      `${DUTY_ON} 200`,
      `${DUTY_OFF} 404`,
    ]);
    expect(running.port.store.keys('outbox:')).toEqual([]);
    expect(running.bridge.footprint().onDutyRevalidation).toBe(0);
    const lines = running.port.lines.slice(linesBefore);
    expect(lines.filter((line) => /^(ERROR|WARN)/.test(line))).toEqual([]);
    expect(lines.filter((line) => line.includes('no longer knows chat id'))).toHaveLength(1);
  });

  it('sends the panel an on with a changed rank, fires playerRankChanged and tells the player', async () => {
    const running = await alexOnDutyInLspd();
    await elapse(60_000);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant, ROLES.bcsoMember]);

    await elapse(FIVE_MINUTES);

    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: 3 });
    expect(running.port.emitted(PUBLIC_EVENTS.playerRankChanged)).toEqual([[7, LSPD.id, LSPD.lieutenant]]);
    expect(running.port.sentTo(7, INTERNAL_EVENTS.notify)).toContainEqual(['rank_changed', { rank: 'Lieutenant' }]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON, DUTY_ON]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.sergeant, endedBy: 'switch' }),
      expect.objectContaining({ departmentId: LSPD.id, rankId: LSPD.lieutenant, endedBy: null }),
    ]);
    // What a crash would leave for the next start: the duty with its new rank.
    expect(JSON.parse(running.port.store.get(`open-duty:${TWO_DEPARTMENTS}`) ?? '{}')).toMatchObject({
      departmentId: LSPD.id,
      rankId: LSPD.lieutenant,
    });
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([]);
  });

  it('sends the rank /dutyrefresh finds to the panel as well', async () => {
    const running = await alexOnDutyInLspd();
    await promotedThenRefreshed(running);

    expect(running.port.emitted(PUBLIC_EVENTS.playerRankChanged)).toEqual([[7, LSPD.id, LSPD.lieutenant]]);
    expectPanelDutyAsLieutenant();
  });

  it('never takes a rank back from a profile older than the one the bridge holds when the check runs', async () => {
    const running = await alexOnDutyInLspd();
    const sergeantProfile = running.bridge.profiles.cached(7);
    await promotedThenRefreshed(running);
    expect(running.bridge.duty.state(7)).toMatchObject({ rankId: LSPD.lieutenant });

    // A check that waited in the account's queue behind the newer fetch, carrying the profile of its own time.
    if (sergeantProfile) running.bridge.duty.submit({ kind: 'reconcile', src: 7, profile: sergeantProfile });
    await settle();

    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: true, rankId: LSPD.lieutenant });
    expect(running.port.emitted(PUBLIC_EVENTS.playerRankChanged)).toEqual([[7, LSPD.id, LSPD.lieutenant]]);
    expectPanelDutyAsLieutenant();
  });

  it('fetches once more when the panel refuses the new rank, and sends the rank it then finds', async () => {
    const running = await alexOnDutyInLspd();
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
    mock.panel.controls.setLatency(2_000);
    await elapse(FIVE_MINUTES + 2_000);
    // The lieutenant's `on` is on its way: the rank changes again before the panel reads it.
    expect(running.bridge.duty.state(7).rankId).toBe(LSPD.lieutenant);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdOfficer]);
    await elapse(10_000);

    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: true, departmentId: LSPD.id, rankId: 1 });
    expect(running.port.emitted(PUBLIC_EVENTS.playerRankChanged)).toEqual([
      [7, LSPD.id, LSPD.lieutenant],
      [7, LSPD.id, 1],
    ]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).at(-1)).toMatchObject({ rankId: 1, endedBy: null });
  });

  it('takes the player off duty when the panel refuses the new rank again', async () => {
    const running = await alexOnDutyInLspd();
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
    mock.panel.controls.setLatency(2_000);
    await elapse(FIVE_MINUTES + 2_000);
    // Each time the bridge learns a rank, the panel has another by the time the `on` arrives.
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdOfficer]);
    // The refetch after the refusal answers at 5:06 (officer), its `on` reaches the panel at 5:08.
    await elapse(5_000);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdSergeant]);
    await elapse(10_000);

    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: LSPD.id, reason: 'department_removed' }],
    ]);
    expect(running.port.linesWith('refused the duty of player 7')).toHaveLength(1);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS).every((session) => session.endedBy !== null)).toBe(true);
  });
});

describe('an account deleted while the panel had yet to take its new rank', () => {
  it('takes the player off duty as an account removed, not a department removed', async () => {
    const running = await alexOnDutyInLspd();
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
    mock.panel.controls.setLatency(2_000);
    await elapse(FIVE_MINUTES + 2_000);
    // The lieutenant's `on` is on its way: the account is deleted before the panel reads it.
    expect(running.bridge.duty.state(7).rankId).toBe(LSPD.lieutenant);
    mock.panel.controls.deleteUser(TWO_DEPARTMENTS);
    await elapse(10_000);

    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: LSPD.id, reason: 'account_removed' }],
    ]);
    expect(running.answers().filter((answer) => answer.startsWith('POST'))).toEqual([
      `${DUTY_ON} 200`,
      `${DUTY_ON} 404`,
      `${DUTY_OFF} 404`,
    ]);
    expect(running.port.store.keys('outbox:')).toEqual([]);
  });
});

describe('the polling of a player ends with their duty', () => {
  const pollingAfter = async (running: RunningBridge, end: () => void) => {
    await connect(running, 7, ALEX);
    await onDuty(running, 7, LSPD.id);
    await elapse(FIVE_MINUTES + 1_000);
    expect(running.bridge.footprint().onDutyRevalidation).toBe(1);
    end();
    await settle();
    const fetched = fetchesOf(running, TWO_DEPARTMENTS);
    await elapse(30 * 60_000);
    expect(running.bridge.footprint().onDutyRevalidation).toBe(0);
    return fetchesOf(running, TWO_DEPARTMENTS) - fetched;
  };

  it('stops when the player goes off duty', async () => {
    const running = await startBridge(mock.panel);
    expect(await pollingAfter(running, () => running.port.requestDuty(7, 2, false, null))).toBe(0);
  });

  it('stops when the player drops', async () => {
    const running = await startBridge(mock.panel);
    expect(await pollingAfter(running, () => running.port.drop(7))).toBe(0);
    expect(Object.values(running.bridge.footprint()).every((size) => size === 0)).toBe(true);
  });

  it('stops when the resource stops', async () => {
    const running = await startBridge(mock.panel);
    expect(await pollingAfter(running, () => running.bridge.stop())).toBe(0);
  });

  it('follows the duty to the account’s other session', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await connect(running, 9, ALEX);
    await onDuty(running, 7, LSPD.id);
    await onDuty(running, 9, BCSO.id);
    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    await elapse(FIVE_MINUTES + 1_000);

    expect(running.bridge.footprint().onDutyRevalidation).toBe(1);
    expect(fetchesOf(running, TWO_DEPARTMENTS)).toBe(2);
  });
});
