import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SessionsResponseSchema } from '../../mock-panel';
import { DutyResponseSchema, dutyPath, ErrorBodySchema } from '../../shared/contract';
import { BCSO, LSPD, LSPD_ROLES, OTHER_GUILD_ONLY, TWO_DEPARTMENTS } from './support/demo-users';
import { createFakeClock } from './support/fake-clock';
import { bodyOf, inProcess, type RunningPanel } from './support/panel-transports';

const MINUTE = 60_000;
const clock = createFakeClock(Date.UTC(2025, 5, 1, 20, 0, 0));
let running: RunningPanel;

beforeAll(async () => {
  running = await inProcess.start({ now: clock.now });
});
afterEach(() => running.panel.controls.reset());
afterAll(() => running.stop());

const onLspd = { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id, rankId: LSPD.sergeant };
const onBcso = { chatId: TWO_DEPARTMENTS, departmentId: BCSO.id, rankId: BCSO.deputy };

async function duty(action: 'on' | 'off', body: object) {
  const response = await running.client.post(dutyPath(action), body);
  expect(response.status).toBe(200);
  return bodyOf(response, DutyResponseSchema);
}

async function refusal(body: object) {
  return bodyOf(await running.client.post(dutyPath('on'), body), ErrorBodySchema);
}

async function sessions(chatId = TWO_DEPARTMENTS) {
  const response = await running.client.get(`/__mock/sessions?chatId=${chatId}`);
  return (await bodyOf(response, SessionsResponseSchema)).sessions;
}

describe('going on and off duty', () => {
  it('repeating on duty is answered 200 with changed: false and opens no second session', async () => {
    expect((await duty('on', onLspd)).changed).toBe(true);
    const retry = await duty('on', onLspd);
    expect(retry.changed).toBe(false);
    expect(retry.duty).toMatchObject({ onDuty: true, departmentId: LSPD.id });
    expect(await sessions()).toHaveLength(1);
  });

  it('going off duty while off is answered 200 with changed: false', async () => {
    const off = await duty('off', { chatId: TWO_DEPARTMENTS });
    expect(off).toMatchObject({ changed: false, duty: { onDuty: false } });
    expect(await sessions()).toEqual([]);
  });

  it('records each session with its player, start, end and duration', async () => {
    const startedAt = new Date(clock.now()).toISOString();
    await duty('on', { ...onLspd, serverId: 12, playerName: 'Alex' });
    clock.advance(25 * MINUTE);
    await duty('off', { chatId: TWO_DEPARTMENTS });
    expect(await sessions()).toEqual([
      {
        id: 1,
        chatId: TWO_DEPARTMENTS,
        departmentId: LSPD.id,
        rankId: LSPD.sergeant,
        serverId: 12,
        playerName: 'Alex',
        startedAt,
        endedAt: new Date(clock.now()).toISOString(),
        durationMs: 25 * MINUTE,
        endedBy: 'off',
      },
    ]);
  });

  it('going on duty for another department ends the current session and starts a new one', async () => {
    await duty('on', onLspd);
    clock.advance(10 * MINUTE);
    const switched = await duty('on', onBcso);
    expect(switched).toMatchObject({ changed: true, duty: { departmentId: BCSO.id, rankId: BCSO.deputy } });
    expect(switched.duty.since).toBe(new Date(clock.now()).toISOString());
    const [lspd, bcso] = await sessions();
    expect(lspd).toMatchObject({ departmentId: LSPD.id, endedBy: 'switch', durationMs: 10 * MINUTE });
    expect(bcso).toMatchObject({ departmentId: BCSO.id, endedAt: null, durationMs: null });
  });

  it('a late off for the department already left does not end the current session', async () => {
    await duty('on', onLspd);
    await duty('on', onBcso);
    const lateOff = await duty('off', { chatId: TWO_DEPARTMENTS, departmentId: LSPD.id });
    expect(lateOff).toMatchObject({ changed: false, duty: { onDuty: true, departmentId: BCSO.id } });
    expect((await duty('off', { chatId: TWO_DEPARTMENTS, departmentId: BCSO.id })).changed).toBe(true);
  });

  it('after a promotion the old rank is refused, and the new rank starts a new session', async () => {
    await duty('on', onLspd);
    clock.advance(5 * MINUTE);
    running.panel.controls.setRoles(TWO_DEPARTMENTS, [LSPD_ROLES.member, LSPD_ROLES.lieutenant]);
    expect((await refusal(onLspd)).error).toBe('rank_mismatch');
    const promoted = await duty('on', { ...onLspd, rankId: LSPD.lieutenant });
    expect(promoted).toMatchObject({ changed: true, duty: { rankId: LSPD.lieutenant } });
    const [before, after] = await sessions();
    expect(before).toMatchObject({ rankId: LSPD.sergeant, endedBy: 'switch', durationMs: 5 * MINUTE });
    expect(after).toMatchObject({ rankId: LSPD.lieutenant, endedAt: null });
  });
});

describe('refusing to put a player on duty', () => {
  it('in a department they are not in: not_member', async () => {
    expect((await refusal({ chatId: TWO_DEPARTMENTS, departmentId: 3, rankId: 7 })).error).toBe('not_member');
  });

  it('through roles held only in another guild: not_member', async () => {
    expect((await refusal({ chatId: OTHER_GUILD_ONLY, departmentId: LSPD.id, rankId: 3 })).error).toBe('not_member');
  });

  it('with a rank that is not theirs, even a real one of that department: rank_mismatch', async () => {
    expect((await refusal({ ...onLspd, rankId: LSPD.officer })).error).toBe('rank_mismatch');
    expect((await refusal({ ...onLspd, rankId: BCSO.deputy })).error).toBe('rank_mismatch');
  });

  it('in a department the panel does not have: department_not_found', async () => {
    expect((await refusal({ ...onLspd, departmentId: 42 })).error).toBe('department_not_found');
  });

  it('leaves the duty state and the sessions untouched', async () => {
    await duty('on', onLspd);
    await refusal({ ...onBcso, rankId: 5 });
    const state = await duty('on', onLspd);
    expect(state).toMatchObject({ changed: false, duty: { departmentId: LSPD.id } });
    expect(await sessions()).toHaveLength(1);
  });
});
