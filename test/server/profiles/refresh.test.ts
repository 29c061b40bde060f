import { describe, expect, it } from 'vitest';
import { ALEX, BCSO, JAMIE, LSPD, ONE_DEPARTMENT, ROLES, TWO_DEPARTMENTS } from '../../../bench/support/demo-users.js';
import { INTERNAL_EVENTS, PUBLIC_EVENTS } from '../../../shared/events.js';
import { connect, DUTY_OFF, DUTY_ON, departmentsCall, startBridge, useMockPanel } from '../support/bridge-harness.js';
import { elapse, START_TIME, settle } from '../support/virtual-runtime.js';

const mock = useMockPanel();

const notices = (running: Awaited<ReturnType<typeof startBridge>>, src: number) =>
  running.port.sentTo(src, INTERNAL_EVENTS.notify);

describe('/dutyrefresh', () => {
  it('fetches past the cache and sends the new profile after a role change in the panel', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant]);
    await elapse(1_000);

    running.port.requestRefresh(7);
    await settle();

    expect(running.calls()).toEqual([departmentsCall(TWO_DEPARTMENTS), departmentsCall(TWO_DEPARTMENTS)]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      {
        ok: true,
        chatId: TWO_DEPARTMENTS,
        departments: [
          { id: LSPD.id, slug: 'lspd', name: 'Los Santos Police Department', rank: { id: 3, name: 'Lieutenant' } },
        ],
        fetchedAt: START_TIME + 1_000,
      },
    ]);
    expect(notices(running, 7)).toEqual([['refreshed', {}]]);
  });

  it('takes a player off duty when the refreshed profile no longer has their department', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, BCSO.id);
    await settle();
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdSergeant]);

    running.port.requestRefresh(7);
    await settle();

    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([[7, 'department_removed', false]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: BCSO.id, reason: 'department_removed' }],
    ]);
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON, DUTY_OFF]);
    expect(mock.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: BCSO.id, endedBy: 'off' }),
    ]);
  });

  it('takes a player off duty at once when the panel deleted their chat account, and tells them why', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.deleteUser(TWO_DEPARTMENTS);

    running.port.requestRefresh(7);
    await settle();

    expect(running.bridge.duty.state(7).onDuty).toBe(false);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({ ok: false, error: 'not_registered' }),
    ]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.offDuty)).toEqual([
      [{ departmentId: LSPD.id, reason: 'account_removed' }],
    ]);
    expect(running.answers().filter((answer) => answer.startsWith('POST'))).toEqual([
      `${DUTY_ON} 200`,
      `${DUTY_OFF} 404`,
    ]);
  });

  it('follows a renamed department at once, with no duty call', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.renameDepartment(LSPD.id, { slug: 'lapd', name: 'LAPD' });

    running.port.requestRefresh(7);
    await settle();

    expect(running.bridge.duty.state(7)).toMatchObject({ onDuty: true, departmentId: LSPD.id, departmentSlug: 'lapd' });
    expect(running.port.emitted(PUBLIC_EVENTS.playerDepartmentRenamed)).toEqual([[7, LSPD.id, 'lapd', 'lspd']]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.deptData).at(-1)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, slug: 'lapd', name: 'LAPD' }),
    ]);
    expect(running.port.sentTo(7, INTERNAL_EVENTS.notify).map(([key]) => key)).not.toContain('rank_changed');
    expect(running.calls().filter((call) => call.startsWith('POST'))).toEqual([DUTY_ON]);
  });

  it('keeps a player on duty with their new rank when only the rank changed', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    running.port.requestDuty(7, 1, true, LSPD.id);
    await settle();
    mock.panel.controls.setRoles(TWO_DEPARTMENTS, [ROLES.lspdMember, ROLES.lspdLieutenant, ROLES.bcsoMember]);

    running.port.requestRefresh(7);
    await settle();

    expect(running.bridge.duty.state(7)).toMatchObject({
      onDuty: true,
      departmentId: LSPD.id,
      rankId: LSPD.lieutenant,
    });
    expect(running.port.sentTo(7, INTERNAL_EVENTS.dutyState).at(-1)).toEqual([
      { onDuty: true, departmentId: LSPD.id, rankId: LSPD.lieutenant, since: START_TIME },
    ]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.deptData).at(-1)).toEqual([
      expect.objectContaining({ departmentId: LSPD.id, rank: { id: LSPD.lieutenant, name: 'Lieutenant' } }),
    ]);
    expect(notices(running, 7)).toContainEqual(['rank_changed', { rank: 'Lieutenant' }]);
    expect(running.port.emitted(PUBLIC_EVENTS.playerOffDuty)).toEqual([]);
  });

  it('refuses a second refresh within the cooldown without a request, and allows it after', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);

    running.port.requestRefresh(7);
    await settle();
    await elapse(10_000);
    running.port.requestRefresh(7);
    await settle();

    expect(running.calls()).toHaveLength(2);
    expect(notices(running, 7)).toEqual([
      ['refreshed', {}],
      ['refresh_cooldown', { seconds: 20 }],
    ]);

    await elapse(20_000);
    running.port.requestRefresh(7);
    await settle();
    expect(running.calls()).toHaveLength(3);
    expect(notices(running, 7).at(-1)).toEqual(['refreshed', {}]);
  });

  it('keeps one player’s cooldown from affecting another player', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);

    running.port.requestRefresh(7);
    running.port.requestRefresh(8);
    await settle();

    expect(notices(running, 7)).toEqual([['refreshed', {}]]);
    expect(notices(running, 8)).toEqual([['refreshed', {}]]);
    expect(running.calls().filter((call) => call === departmentsCall(ONE_DEPARTMENT))).toHaveLength(2);
  });

  it('follows RefreshCooldownMs from config.lua', async () => {
    const running = await startBridge(mock.panel, { config: { value: { RefreshCooldownMs: 5_000 } } });
    await connect(running, 7, ALEX);

    running.port.requestRefresh(7);
    await settle();
    await elapse(5_000);
    running.port.requestRefresh(7);
    await settle();

    expect(notices(running, 7)).toEqual([
      ['refreshed', {}],
      ['refreshed', {}],
    ]);
  });

  it('still limits a burst of refreshes when config.lua sets no cooldown', async () => {
    const running = await startBridge(mock.panel, { config: { value: { RefreshCooldownMs: 0 } } });
    await connect(running, 7, ALEX);

    for (let i = 0; i < 4; i++) running.port.requestRefresh(7);
    await settle();

    // The refused ones are answered at once. The two let through each get an answer to a request sent after they
    // asked (a refresh must see roles changed a moment ago), so the burst costs the join's fetch and two more.
    expect(notices(running, 7)).toEqual([
      ['refresh_cooldown', { seconds: 1 }],
      ['refresh_cooldown', { seconds: 1 }],
      ['refreshed', {}],
      ['refreshed', {}],
    ]);
    expect(running.calls()).toEqual([
      departmentsCall(TWO_DEPARTMENTS),
      departmentsCall(TWO_DEPARTMENTS),
      departmentsCall(TWO_DEPARTMENTS),
    ]);
  });

  it('answers one player’s refresh without waiting for another player’s slow one', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    await connect(running, 8, JAMIE);
    mock.panel.controls.setLatency(4_000);

    running.port.requestRefresh(7);
    running.port.requestRefresh(8);
    await elapse(4_000);

    expect(notices(running, 7)).toEqual([['refreshed', {}]]);
    expect(notices(running, 8)).toEqual([['refreshed', {}]]);
  });

  it('tells the player the refresh failed when the panel is down, while keeping the profile they had', async () => {
    const running = await startBridge(mock.panel);
    await connect(running, 7, ALEX);
    mock.panel.controls.injectErrors({ error: 'internal_error' });

    running.port.requestRefresh(7);
    await settle();

    expect(notices(running, 7)).toEqual([['refresh_failed', {}]]);
    expect(running.port.sentTo(7, PUBLIC_EVENTS.profile).at(-1)).toEqual([
      expect.objectContaining({ ok: true, fetchedAt: START_TIME }),
    ]);
  });
});
