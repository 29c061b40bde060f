// The players' duty command (Config.DutyCommand) typed on simulated clients: the built bridge against the mock panel,
// with and without a stub of ox_lib's context menus (test/e2e/fixtures/stub_ox_lib, written from ox_lib's source).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, ONE_DEPARTMENT, SAFR, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { dutyAnswered, dutyRequestsFrom, typed as typedIn } from './support/duty-requests.js';
import { startWorld, type World, type WorldOptions } from './support/world.js';

const STUB_OX_LIB = { dir: join(import.meta.dirname, 'fixtures', 'stub_ox_lib'), name: 'ox_lib' };
const ENABLED = 'Config.DutyCommand = { Enabled = true }';

type ShownOption = { title: string; description?: string; disabled?: boolean; onSelect: boolean };
type ShownContext = { id: string; title: string; options: ShownOption[] };
interface OxLibStub {
  notified(): Array<{ description: string; type: string }>;
  shownContexts(): ShownContext[];
  clickContext(index: number): boolean;
}

const feed = (player: SimPlayer) => player.notifications.map((n) => n.text);
const chatLines = (player: SimPlayer) =>
  player.chat.messages.map((message) => (message as { args: string[] }).args.join(': '));
const oxLib = (player: SimPlayer) => player.exports.ox_lib as OxLibStub;

describe('the duty command typed in game', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const start = async (options: WorldOptions = {}) => {
    world = await startWorld({ config: ENABLED, ...options });
  };

  const dutyRequests = (player: SimPlayer) => dutyRequestsFrom(world, player);
  const answered = (player: SimPlayer, act: () => void) => dutyAnswered(world, player, act);
  const typed = (player: SimPlayer, line: string) => typedIn(world, player, line);
  const isOnDuty = (player: SimPlayer) => world.sim.exports.bridge.IsPlayerOnDuty(player.id) as boolean;

  it('with one department, goes on duty there and off again, as the panel records', async () => {
    await start();
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await typed(jamie, '/duty');
    expect(isOnDuty(jamie)).toBe(true);
    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([[jamie.id, SAFR.id, SAFR.captain, false]]);
    expect(world.panel.controls.sessions(ONE_DEPARTMENT)).toMatchObject([{ departmentId: SAFR.id, endedAt: null }]);

    await typed(jamie, '/duty');
    expect(isOnDuty(jamie)).toBe(false);
    expect(world.panel.controls.sessions(ONE_DEPARTMENT)).toMatchObject([{ endedBy: 'off' }]);
    expect(feed(jamie)).toEqual(['You are now on duty: San Andreas Fire Rescue, Captain.', 'You are now off duty.']);
    expect(dutyRequests(jamie)).toEqual([
      [1, true, SAFR.id],
      [2, false, null],
    ]);
  });

  it('with several and no ox_lib, lists them in chat; a number, a slug and off go through the panel', async () => {
    await start();
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await typed(alex, '/duty');
    expect(chatLines(alex)).toEqual([
      'Duty: Your departments: /duty <number or slug> goes on duty, /duty off goes off duty.',
      'Duty: 1. Los Santos Police Department (lspd), Sergeant',
      "Duty: 2. Blaine County Sheriff's Office (bcso), Deputy",
    ]);
    expect(dutyRequests(alex)).toEqual([]);

    await typed(alex, '/duty 2');
    expect(world.sim.exports.bridge.GetPlayerDuty(alex.id)).toMatchObject({ onDuty: true, departmentSlug: 'bcso' });
    await typed(alex, '/duty LSPD');
    await typed(alex, '/duty lspd');
    expect(world.sim.exports.bridge.GetPlayerDuty(alex.id)).toMatchObject({
      onDuty: true,
      departmentId: LSPD.id,
      rankId: LSPD.sergeant,
    });
    await typed(alex, '/duty');
    expect(chatLines(alex).at(-1)).toBe("Duty: 2. Blaine County Sheriff's Office (bcso), Deputy");
    expect(chatLines(alex).at(-2)).toBe('Duty: 1. Los Santos Police Department (lspd), Sergeant: on duty');
    await typed(alex, '/duty fib');
    await typed(alex, '/duty off');

    expect(world.eventArgs('bridge:server:playerOnDuty')).toEqual([
      [alex.id, BCSO.id, BCSO.deputy, false],
      [alex.id, LSPD.id, LSPD.sergeant, false],
    ]);
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS).map((s) => [s.departmentId, s.endedAt !== null])).toEqual([
      [BCSO.id, true],
      [LSPD.id, true],
    ]);
    expect(feed(alex)).toEqual([
      "You are now on duty: Blaine County Sheriff's Office, Deputy.",
      'You are now off duty.',
      'You are now on duty: Los Santos Police Department, Sergeant.',
      'You are already on duty in Los Santos Police Department.',
      'You have no department "fib"; /duty lists yours.',
      'You are now off duty.',
    ]);
    expect(dutyRequests(alex).map(([, on, departmentId]) => [on, departmentId])).toEqual([
      [true, BCSO.id],
      [true, LSPD.id],
      [true, LSPD.id],
      [false, null],
    ]);
  });

  it("with several and ox_lib started, shows ox_lib's context menu; a click goes on duty, and off", async () => {
    await start({ resources: [STUB_OX_LIB] });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await typed(alex, '/duty');
    expect(oxLib(alex).shownContexts()).toEqual([
      {
        id: 'bridge:duty',
        title: 'Duty',
        options: [
          { title: 'Los Santos Police Department', description: 'Sergeant', onSelect: true },
          { title: "Blaine County Sheriff's Office", description: 'Deputy', onSelect: true },
        ],
      },
    ]);
    expect(chatLines(alex)).toEqual([]);
    expect(dutyRequests(alex)).toEqual([]);

    let clicked = false;
    await answered(alex, () => {
      clicked = oxLib(alex).clickContext(1);
    });
    expect(clicked).toBe(true);
    expect(world.sim.exports.bridge.GetPlayerDuty(alex.id)).toMatchObject({ onDuty: true, departmentId: BCSO.id });

    await typed(alex, '/duty');
    expect(oxLib(alex).shownContexts().at(-1)?.options).toEqual([
      { title: 'Los Santos Police Department', description: 'Sergeant', onSelect: true },
      { title: "Blaine County Sheriff's Office", description: 'On duty as Deputy', disabled: true, onSelect: false },
      { title: 'Go off duty', onSelect: true },
    ]);
    expect(oxLib(alex).clickContext(1)).toBe(false);
    await answered(alex, () => {
      clicked = oxLib(alex).clickContext(2);
    });
    expect(clicked).toBe(true);
    expect(isOnDuty(alex)).toBe(false);
    // The same notifications as the exports give: through ox_lib while it runs.
    expect(
      oxLib(alex)
        .notified()
        .map((n) => [n.description, n.type]),
    ).toEqual([
      ["You are now on duty: Blaine County Sheriff's Office, Deputy.", 'success'],
      ['You are now off duty.', 'inform'],
    ]);
    expect(feed(alex)).toEqual([]);
  });

  it('is suggested in chat under the configured name, and that name is the command', async () => {
    await start({ config: "Config.DutyCommand = { Enabled = true, Name = 'shift' }" });
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    expect(jamie.chat.suggestions.get('/shift')).toEqual({
      name: '/shift',
      help: 'Go on or off duty',
      params: [{ name: 'department', help: 'the number or slug of one of your departments, or off' }],
    });
    expect(jamie.chat.suggestions.has('/duty')).toBe(false);
    await typed(jamie, '/shift');
    expect(isOnDuty(jamie)).toBe(true);
  });

  it('is not there unless turned on: /duty reaches the server, which has no such command', async () => {
    world = await startWorld();
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    expect(jamie.chat.suggestions.has('/duty')).toBe(false);
    jamie.command('/duty');
    await world.sim.settle();
    expect(world.consoleText()).toContain('No such command duty.');
    expect(dutyRequests(jamie)).toEqual([]);
    expect(isOnDuty(jamie)).toBe(false);
  });

  it("is held to the exports' rate limit: the sixth request at once is refused without a panel call", async () => {
    await start({ clock: 'virtual' });
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    const dutyCalls = () => world.requests().filter((request) => request.startsWith('POST'));
    const before = dutyCalls().length;
    // On and off by turns: each of the first five reaches the panel, so a sixth let through would too.
    await answered(jamie, () => {
      for (let i = 0; i < 6; i++) jamie.command(i % 2 === 0 ? '/duty 1' : '/duty off');
    });
    // The refusal is answered at once; the others after their turn in the player's duty lane.
    expect(feed(jamie).filter((text) => text === 'Too many duty requests; slow down.')).toHaveLength(1);
    expect(feed(jamie).filter((text) => text.startsWith('You are now on duty'))).toHaveLength(3);
    expect(feed(jamie).filter((text) => text === 'You are now off duty.')).toHaveLength(2);
    expect(dutyCalls()).toHaveLength(before + 5);
    expect(isOnDuty(jamie)).toBe(true);
  });
});
