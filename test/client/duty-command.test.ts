// The players' duty command (Config.DutyCommand) in the client half, against a fake game: what it sends the server,
// what it lists in chat or in ox_lib's context menu, and what it tells the player.
import { describe, expect, it, vi } from 'vitest';
import { startBridgeClient } from '../../client/bridge-client.js';
import { INTERNAL_EVENTS, type ProfilePayload, PUBLIC_EVENTS } from '../../shared/events.js';
import { createFakeClientPort, type FakeClientOptions } from './fake-client-port.js';

const LSPD = { id: 1, slug: 'lspd', name: 'Los Santos Police Department', rank: { id: 2, name: 'Sergeant' } };
const BCSO = { id: 2, slug: 'bcso', name: "Blaine County Sheriff's Office", rank: { id: 4, name: 'Deputy' } };
const TWO: ProfilePayload = { ok: true, chatId: '284619375016482817', fetchedAt: 1, departments: [LSPD, BCSO] };
const ONE: ProfilePayload = { ...TWO, departments: [BCSO] };
const ENABLED = { DutyCommand: { Enabled: true } };

type Fake = ReturnType<typeof createFakeClientPort>;

function startClient(options: FakeClientOptions = { config: ENABLED }, profile?: ProfilePayload): Fake {
  const fake = createFakeClientPort(options);
  startBridgeClient(fake.port);
  if (profile) fake.fromServer(PUBLIC_EVENTS.profile, profile);
  return fake;
}

const dutyRequests = (fake: Fake) =>
  fake.sent.filter((sent) => sent.event === INTERNAL_EVENTS.dutyRequest).map((sent) => sent.args);

const onDutyIn = (fake: Fake, departmentId: number) =>
  fake.fromServer(INTERNAL_EVENTS.dutyState, { onDuty: true, departmentId, rankId: 2, since: 5 });

describe('the duty command', () => {
  it('is not there unless the owner turns it on', () => {
    const fake = startClient({ config: {} });
    expect([...fake.commands.keys()]).toEqual(['dutyrefresh']);
  });

  it('registers under the configured name with its chat suggestion, and keeps /duty for a name it cannot use', () => {
    const named = startClient({ config: { DutyCommand: { Enabled: true, Name: 'shift' } } });
    expect(named.commands.get('shift')).toMatchObject({
      help: 'Go on or off duty',
      params: [{ name: 'department', help: 'the number or slug of one of your departments, or off' }],
    });
    for (const Name of ['dutyrefresh', '/duty', 'two words', 7]) {
      const fake = startClient({ config: { DutyCommand: { Enabled: true, Name } } });
      expect([...fake.commands.keys()]).toEqual(['dutyrefresh', 'duty']);
    }
  });

  it('with one department, goes on duty there, and off again', () => {
    const fake = startClient(undefined, ONE);
    fake.command('duty');
    expect(dutyRequests(fake)).toEqual([[1, true, BCSO.id]]);
    onDutyIn(fake, BCSO.id);
    fake.command('duty');
    expect(dutyRequests(fake)).toEqual([
      [1, true, BCSO.id],
      [2, false, null],
    ]);
    expect(fake.chat).toEqual([]);
  });

  it('with several and no ox_lib, lists them in chat and sends nothing', () => {
    const fake = startClient(undefined, TWO);
    fake.command('duty');
    expect(fake.chat.map((line) => `${line.author}: ${line.text}`)).toEqual([
      'Duty: Your departments: /duty <number or slug> goes on duty, /duty off goes off duty.',
      'Duty: 1. Los Santos Police Department (lspd), Sergeant',
      "Duty: 2. Blaine County Sheriff's Office (bcso), Deputy",
    ]);
    expect(dutyRequests(fake)).toEqual([]);
    onDutyIn(fake, BCSO.id);
    fake.command('duty');
    expect(fake.chat.at(-1)?.text).toBe("2. Blaine County Sheriff's Office (bcso), Deputy: on duty");
  });

  it('goes on duty by number or by slug in any case, and off with off', () => {
    const fake = startClient(undefined, TWO);
    fake.command('duty 2');
    fake.command('duty LSPD');
    fake.command('duty Off');
    expect(dutyRequests(fake)).toEqual([
      [1, true, BCSO.id],
      [2, true, LSPD.id],
      [3, false, null],
    ]);
  });

  it('names a department the player does not have and sends nothing', () => {
    const fake = startClient(undefined, TWO);
    fake.command('duty 3');
    fake.command('duty fib');
    fake.command('duty 0');
    expect(fake.notifications).toEqual([
      'You have no department "3"; /duty lists yours.',
      'You have no department "fib"; /duty lists yours.',
      'You have no department "0"; /duty lists yours.',
    ]);
    expect(dutyRequests(fake)).toEqual([]);
  });

  it('says why there is nothing to go on duty for, but always sends off', () => {
    const fake = startClient();
    fake.command('duty');
    expect(fake.notifications).toEqual(['Your departments are still loading.']);
    fake.fromServer(PUBLIC_EVENTS.profile, { ok: false, error: 'panel_unavailable', message: 'x' });
    fake.command('duty lspd');
    fake.fromServer(PUBLIC_EVENTS.profile, { ...TWO, departments: [] });
    fake.command('duty');
    expect(fake.notifications.slice(1)).toEqual([
      'Your departments could not be loaded right now; run /dutyrefresh in a moment.',
      'Your departments could not be loaded right now; run /dutyrefresh in a moment.',
      'You are not a member of any department. If that is wrong, run /syncme in the chat or press "Refresh roles" in the panel, then /dutyrefresh.',
    ]);
    fake.command('duty off');
    expect(dutyRequests(fake)).toEqual([[1, false, null]]);
  });

  it('tells the outcome the way the exports do: a refusal and an unchanged duty are notifications', () => {
    const fake = startClient(undefined, ONE);
    fake.command('duty off');
    fake.fromServer(INTERNAL_EVENTS.dutyResult, 1, {
      ok: true,
      changed: false,
      onDuty: false,
      departmentId: null,
      rankId: null,
      since: null,
    });
    fake.command('duty');
    fake.fromServer(INTERNAL_EVENTS.dutyResult, 2, { ok: false, error: 'too_many_requests', message: 'slow down' });
    expect(fake.notifications).toEqual(['You are not on duty.', 'Too many duty requests; slow down.']);
  });
});

describe("the duty command's ox_lib menu", () => {
  function withOxLib(config: object = ENABLED, state = 'started') {
    const registerContext = vi.fn();
    const showContext = vi.fn();
    const fake = startClient(
      { config, resources: { ox_lib: state }, exports: { ox_lib: { registerContext, showContext } } },
      TWO,
    );
    const menu = () => registerContext.mock.lastCall?.[0] as { id: string; title: string; options: MenuOption[] };
    return { fake, registerContext, showContext, menu };
  }
  type MenuOption = { title: string; description?: string; disabled?: boolean; onSelect?: () => void };

  it('lists the departments with their ranks, and selecting one goes on duty there', () => {
    const { fake, showContext, menu } = withOxLib();
    fake.command('duty');
    expect(menu()).toMatchObject({
      id: 'bridge:duty',
      title: 'Duty',
      options: [
        { title: LSPD.name, description: 'Sergeant' },
        { title: BCSO.name, description: 'Deputy' },
      ],
    });
    expect(showContext).toHaveBeenCalledWith('bridge:duty');
    expect(fake.chat).toEqual([]);
    expect(dutyRequests(fake)).toEqual([]);
    menu().options[1]?.onSelect?.();
    expect(dutyRequests(fake)).toEqual([[1, true, BCSO.id]]);
  });

  it('while on duty, shows that department as not selectable and offers off duty', () => {
    const { fake, menu } = withOxLib();
    onDutyIn(fake, LSPD.id);
    fake.command('duty');
    const [lspd, bcso, off] = menu().options;
    expect(lspd).toEqual({ title: LSPD.name, description: 'On duty as Sergeant', disabled: true });
    expect(bcso).toMatchObject({ title: BCSO.name, description: 'Deputy' });
    expect(off?.title).toBe('Go off duty');
    off?.onSelect?.();
    expect(dutyRequests(fake)).toEqual([[1, false, null]]);
  });

  it("is a chat list when ox_lib is stopped, when the owner chose 'chat', or when ox_lib's call fails", () => {
    for (const [config, state] of [
      [ENABLED, 'stopped'],
      [{ DutyCommand: { Enabled: true, Menu: 'chat' } }, 'started'],
    ] as const) {
      const { fake, registerContext } = withOxLib(config, state);
      fake.command('duty');
      expect(registerContext).not.toHaveBeenCalled();
      expect(fake.chat).toHaveLength(3);
    }
    const fake = startClient({ config: ENABLED, resources: { ox_lib: 'started' }, exports: { ox_lib: {} } }, TWO);
    fake.command('duty');
    fake.command('duty');
    expect(fake.chat).toHaveLength(6);
    expect(fake.logs).toEqual([
      "ox_lib's context menu failed, listing the departments in chat instead: Error: No such export registerContext in resource ox_lib",
    ]);
  });

  it("uses the owner's Config.Locale texts", () => {
    const { fake, menu } = withOxLib({
      DutyCommand: { Enabled: true },
      Locale: { duty_menu_title: 'Dienst', duty_menu_department: '{rank} ({slug})', duty_help: 'Dienst an oder aus' },
    });
    fake.command('duty');
    expect(menu()).toMatchObject({ title: 'Dienst', options: [{ description: 'Sergeant (lspd)' }, {}] });
    expect(fake.commands.get('duty')?.help).toBe('Dienst an oder aus');
  });
});
