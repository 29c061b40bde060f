import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type DutyOptions, startBridgeClient } from '../../client/bridge-client.js';
import { tokenProof } from '../../client/token-proof.js';
import { INTERNAL_EVENTS, type ProfilePayload, PUBLIC_EVENTS } from '../../shared/events.js';
import { TOKEN_CONVAR } from '../../shared/token-exposure.js';
import { createFakeClientPort } from './fake-client-port.js';

const profile: ProfilePayload = {
  ok: true,
  chatId: '284619375016482817',
  fetchedAt: 1,
  departments: [
    { id: 1, slug: 'lspd', name: 'Los Santos Police Department', rank: { id: 2, name: 'Sergeant' } },
    { id: 3, slug: 'safd', name: 'San Andreas Fire Department', rank: { id: 7, name: 'Firefighter' } },
  ],
};

describe('the client half', () => {
  let fake: ReturnType<typeof createFakeClientPort>;
  beforeEach(() => {
    fake = createFakeClientPort();
    startBridgeClient(fake.port);
  });

  it('asks the server for its profile as soon as it starts', () => {
    expect(fake.sent).toEqual([{ event: INTERNAL_EVENTS.clientReady, args: [] }]);
  });

  it('answers GetDutyOptions with ok false and loading before the profile arrives', () => {
    expect(fake.call<DutyOptions>('GetDutyOptions')).toMatchObject({
      ok: false,
      error: 'loading',
      departments: [],
      onDuty: false,
    });
  });

  it('lists the departments with their ranks and a working setActive', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    const options = fake.call<DutyOptions>('GetDutyOptions');
    expect(options.ok).toBe(true);
    expect(options.departments.map((d) => [d.id, d.slug, d.rank.id])).toEqual([
      [1, 'lspd', 2],
      [3, 'safd', 7],
    ]);
    expect(options.selectedDeptId).toBeNull();
    options.departments[1]?.setActive();
    expect(fake.call<DutyOptions>('GetDutyOptions').selectedDeptId).toBe(3);
  });

  it('refuses to go on duty with no department selected, without asking the server', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    const callback = vi.fn();
    expect(fake.call('UpdatePlayerDuty', true, callback)).toBe(false);
    expect(callback).toHaveBeenCalledWith(expect.objectContaining({ ok: false, error: 'no_department_selected' }));
    expect(fake.notifications).toEqual(['Select a department before going on duty.']);
    expect(fake.sent.filter((s) => s.event === INTERNAL_EVENTS.dutyRequest)).toEqual([]);
  });

  it('goes on duty for the only department without a selection, as the server export does', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, { ...profile, departments: profile.departments.slice(1) });
    expect(fake.call<DutyOptions>('GetDutyOptions').selectedDeptId).toBeNull();
    expect(fake.call('UpdatePlayerDuty', true)).toBe(true);
    expect(fake.sent.at(-1)).toEqual({ event: INTERNAL_EVENTS.dutyRequest, args: [1, true, 3] });
    expect(fake.notifications).toEqual([]);
  });

  it('still needs a selection from a player with two departments, and goes for the selected one', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    expect(fake.call('UpdatePlayerDuty', true)).toBe(false);
    fake.call<DutyOptions>('GetDutyOptions').departments[1]?.setActive();
    expect(fake.call('UpdatePlayerDuty', true)).toBe(true);
    expect(fake.sent.at(-1)).toEqual({ event: INTERNAL_EVENTS.dutyRequest, args: [1, true, 3] });
  });

  it('sends only the selected department id and hands the outcome to the callback', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.call<DutyOptions>('GetDutyOptions').departments[0]?.setActive();
    const callback = vi.fn();
    expect(fake.call('UpdatePlayerDuty', true, callback)).toBe(true);
    expect(fake.sent.at(-1)).toEqual({ event: INTERNAL_EVENTS.dutyRequest, args: [1, true, 1] });
    const outcome = { ok: true, changed: true, onDuty: true, departmentId: 1, rankId: 2, since: 5 };
    fake.fromServer(PUBLIC_EVENTS.deptData, {
      departmentId: 1,
      slug: 'lspd',
      name: 'Los Santos Police Department',
      rank: { id: 2, name: 'Sergeant' },
      data: { vehicles: [], uniforms: [], equipment: [] },
    });
    fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: true, departmentId: 1, rankId: 2, since: 5 });
    fake.fromServer(INTERNAL_EVENTS.dutyResult, 1, outcome);
    expect(callback).toHaveBeenCalledWith(outcome);
    expect(fake.call('IsPlayerOnDuty')).toBe(true);
    expect(fake.notifications).toEqual(['You are now on duty: Los Santos Police Department, Sergeant.']);
  });

  it('refuses a status that is not a boolean', () => {
    expect(fake.call('UpdatePlayerDuty', 'yes')).toBe(false);
    expect(fake.notifications).toEqual(['UpdatePlayerDuty needs true (on duty) or false (off duty).']);
  });

  it('tells the player why a duty request failed', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.call('UpdatePlayerDuty', false);
    fake.fromServer(INTERNAL_EVENTS.dutyResult, 1, { ok: false, error: 'panel_unavailable', message: 'x' });
    expect(fake.notifications).toEqual(['The panel did not answer; try again in a moment.']);
  });

  it('tells a player without a linked chat account how to link it, once', () => {
    const missing = { ok: false, error: 'no_identifier', message: 'link it' };
    fake.fromServer(PUBLIC_EVENTS.profile, missing);
    fake.fromServer(PUBLIC_EVENTS.profile, missing);
    expect(fake.notifications).toEqual([
      'No chat account is linked to your game. Link your chat account in FiveM and reconnect.',
    ]);
    expect(fake.call<DutyOptions>('GetDutyOptions')).toMatchObject({ ok: false, error: 'no_identifier' });
  });

  it('drops a selection the refreshed profile no longer grants', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.call<DutyOptions>('GetDutyOptions').departments[1]?.setActive();
    fake.fromServer(PUBLIC_EVENTS.profile, { ...profile, departments: profile.departments.slice(0, 1) });
    expect(fake.call<DutyOptions>('GetDutyOptions').selectedDeptId).toBeNull();
  });

  it('explains an off-duty the player did not ask for', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.fromServer(PUBLIC_EVENTS.offDuty, { departmentId: 3, reason: 'department_removed' });
    expect(fake.notifications).toEqual([
      'You were taken off duty: you are no longer a member of San Andreas Fire Department.',
    ]);
  });

  it('registers /dutyrefresh with help text and sends the refresh request', () => {
    const command = fake.commands.get('dutyrefresh');
    expect(command?.help).toBe('Reload your departments and ranks from the panel');
    expect(command?.params).toEqual([{ name: 'id', help: "Supervisors: another player's server id" }]);
    command?.handler([]);
    expect(fake.sent.at(-1)).toEqual({ event: INTERNAL_EVENTS.refreshRequest, args: [] });
  });

  it("sends /dutyrefresh <id> as a supervisor's request, the id as typed, for the server to check", () => {
    fake.commands.get('dutyrefresh')?.handler(['7', 'extra']);
    expect(fake.sent.at(-1)).toEqual({ event: INTERNAL_EVENTS.refreshOtherRequest, args: ['7'] });
  });

  it('survives a callback that throws (a dead Lua reference)', () => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.call('UpdatePlayerDuty', false, () => {
      throw new Error('reference was not valid');
    });
    expect(() => fake.fromServer(INTERNAL_EVENTS.dutyResult, 1, { ok: false, error: 'x', message: 'y' })).not.toThrow();
    expect(fake.logs).toEqual(['the UpdatePlayerDuty callback failed: Error: reference was not valid']);
  });
});

describe('the client half after a refresh removed the duty department', () => {
  it('still names the department it was on duty in', () => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.fromServer(PUBLIC_EVENTS.deptData, {
      departmentId: 3,
      slug: 'safd',
      name: 'San Andreas Fire Department',
      rank: { id: 7, name: 'Firefighter' },
      data: { vehicles: [], uniforms: [], equipment: [] },
    });
    fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: true, departmentId: 3, rankId: 7, since: 5 });
    fake.fromServer(PUBLIC_EVENTS.profile, { ...profile, departments: profile.departments.slice(0, 1) });
    fake.fromServer(PUBLIC_EVENTS.offDuty, { departmentId: 3, reason: 'department_removed' });
    expect(fake.notifications.at(-1)).toBe(
      'You were taken off duty: you are no longer a member of San Andreas Fire Department.',
    );
  });
});

describe('the client half asked whether it can read the panel token', () => {
  const TOKEN = 'the-panel-token-0123456789';

  it('answers nothing when the token convar is not replicated to it (the owner used `set`)', () => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    fake.fromServer(INTERNAL_EVENTS.tokenCheck, 'a1b2');
    expect(fake.sent.map((message) => message.event)).toEqual([INTERNAL_EVENTS.clientReady]);
  });

  it('answers with a proof, never the token, when it can read it (`setr`)', () => {
    const fake = createFakeClientPort({ replicatedConvars: { [TOKEN_CONVAR]: TOKEN } });
    startBridgeClient(fake.port);
    fake.fromServer(INTERNAL_EVENTS.tokenCheck, 'a1b2');
    fake.fromServer(INTERNAL_EVENTS.tokenCheck, { not: 'a nonce' });
    expect(fake.sent.slice(1)).toEqual([
      { event: INTERNAL_EVENTS.tokenProof, args: ['a1b2', tokenProof(TOKEN, 'a1b2')] },
    ]);
    expect(JSON.stringify(fake.sent)).not.toContain(TOKEN);
  });
});

describe('the selection follows the profile', () => {
  const bcsoOnly = (): ProfilePayload => ({ ...profile, departments: profile.departments.slice(1) });
  const onDutyInSafd = (fake: ReturnType<typeof createFakeClientPort>) => {
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.call<DutyOptions>('GetDutyOptions').departments[1]?.setActive();
    fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: true, departmentId: 3, rankId: 7, since: 5 });
  };

  it('stays off the removed department when its duty state arrives after the profile (the /dutyrefresh order)', () => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    onDutyInSafd(fake);
    // What a refresh sends: the profile, the duty state as it still is, then the off duty and the new duty state.
    fake.fromServer(PUBLIC_EVENTS.profile, { ...profile, departments: profile.departments.slice(0, 1) });
    fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: true, departmentId: 3, rankId: 7, since: 5 });
    fake.fromServer(PUBLIC_EVENTS.offDuty, { departmentId: 3, reason: 'department_removed' });
    fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: false, departmentId: null, rankId: null, since: null });
    expect(fake.call<DutyOptions>('GetDutyOptions').selectedDeptId).toBeNull();
    // "On duty" then asks for the one department left, never the removed one (the panel would refuse: not_member).
    expect(fake.call('UpdatePlayerDuty', true)).toBe(true);
    expect(fake.sent.filter((s) => s.event === INTERNAL_EVENTS.dutyRequest).map((s) => s.args[2])).toEqual([1]);
  });

  it('keeps the selection of a department the new profile still grants', () => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    onDutyInSafd(fake);
    fake.fromServer(PUBLIC_EVENTS.profile, bcsoOnly());
    fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: true, departmentId: 3, rankId: 7, since: 5 });
    expect(fake.call<DutyOptions>('GetDutyOptions').selectedDeptId).toBe(3);
  });

  it('is cleared by a profile that says the player has no departments at all', () => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    fake.call<DutyOptions>('GetDutyOptions').departments[0]?.setActive();
    fake.fromServer(PUBLIC_EVENTS.profile, { ok: false, error: 'not_registered', message: 'run /syncme' });
    expect(fake.call<DutyOptions>('GetDutyOptions').selectedDeptId).toBeNull();
  });

  it.each([
    ['a profile with no departments', { ...profile, departments: [] }],
    ['a chat account the panel does not know', { ok: false, error: 'not_registered', message: 'run /syncme' }],
  ])('names no_departments, with the /syncme advice, for %s', (_, payload) => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    fake.fromServer(PUBLIC_EVENTS.profile, payload);
    fake.notifications.length = 0;
    const callback = vi.fn();
    expect(fake.call('UpdatePlayerDuty', true, callback)).toBe(false);
    const text =
      'You are not a member of any department. If that is wrong, run /syncme in the chat or press "Refresh roles" in the panel, then /dutyrefresh.';
    expect(callback).toHaveBeenCalledWith({ ok: false, error: 'no_departments', message: text });
    expect(fake.notifications).toEqual([text]);
    expect(fake.sent.filter((s) => s.event === INTERNAL_EVENTS.dutyRequest)).toEqual([]);
  });

  it('names profile_unavailable, not a missing selection, while the departments are still loading', () => {
    const fake = createFakeClientPort();
    startBridgeClient(fake.port);
    const callback = vi.fn();
    expect(fake.call('UpdatePlayerDuty', true, callback)).toBe(false);
    expect(callback).toHaveBeenCalledWith(expect.objectContaining({ ok: false, error: 'profile_unavailable' }));
  });
});

describe('GetDutyOptions revalidates an old profile (stale-while-revalidate)', () => {
  const INTERVAL = 60_000;
  const start = () => {
    const fake = createFakeClientPort({ config: { RefreshIntervalMs: INTERVAL } });
    startBridgeClient(fake.port);
    fake.fromServer(PUBLIC_EVENTS.profile, profile);
    return fake;
  };
  const asks = (fake: ReturnType<typeof createFakeClientPort>) =>
    fake.sent.filter((s) => s.event === INTERNAL_EVENTS.revalidateRequest);

  it('asks nothing while the profile is younger than the interval, nor for a player whose menu never asks', () => {
    const fake = start();
    fake.advance(INTERVAL);
    fake.call<DutyOptions>('GetDutyOptions');
    const untouched = start();
    untouched.advance(INTERVAL * 10);
    expect(asks(fake)).toEqual([]);
    expect(asks(untouched)).toEqual([]);
  });

  it('answers an older profile at once and asks the server once per interval, however often it is called', () => {
    const fake = start();
    fake.advance(INTERVAL + 1);
    const options = fake.call<DutyOptions>('GetDutyOptions');
    expect(options.departments.map((d) => d.id)).toEqual([1, 3]);
    expect(asks(fake)).toHaveLength(1);
    for (let i = 0; i < 50; i++) {
      fake.call<DutyOptions>('GetDutyOptions');
      fake.advance(1_000);
    }
    expect(asks(fake)).toHaveLength(1);
    fake.advance(INTERVAL - 50_000);
    fake.call<DutyOptions>('GetDutyOptions');
    expect(asks(fake)).toHaveLength(2);
  });

  it('counts the age from when the profile arrived, on the game timer, not from its fetchedAt', () => {
    const fake = start();
    fake.advance(INTERVAL + 1);
    fake.call<DutyOptions>('GetDutyOptions');
    fake.advance(5_000);
    // The answer: fetched long ago by the server's wall clock, which means nothing to this client's clock.
    fake.fromServer(PUBLIC_EVENTS.profile, { ...profile, fetchedAt: 0, departments: profile.departments.slice(1) });
    fake.advance(INTERVAL);
    expect(fake.call<DutyOptions>('GetDutyOptions').departments.map((d) => d.id)).toEqual([3]);
    expect(asks(fake)).toHaveLength(1);
    fake.advance(1);
    fake.call<DutyOptions>('GetDutyOptions');
    expect(asks(fake)).toHaveLength(2);
  });

  it('uses the default interval (5 minutes) when config.lua has none or an unusable one', () => {
    for (const config of [undefined, { RefreshIntervalMs: 'soon' }, { RefreshIntervalMs: -5 }]) {
      const fake = createFakeClientPort({ config });
      startBridgeClient(fake.port);
      fake.fromServer(PUBLIC_EVENTS.profile, profile);
      fake.advance(300_000);
      fake.call<DutyOptions>('GetDutyOptions');
      expect(asks(fake)).toEqual([]);
      fake.advance(1);
      fake.call<DutyOptions>('GetDutyOptions');
      expect(asks(fake)).toHaveLength(1);
    }
  });
});
