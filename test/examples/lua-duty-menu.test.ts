import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { REPO_ROOT, startWorld, type World } from '../e2e/support/world.js';
import { BCSO, NO_DEPARTMENTS, TWO_DEPARTMENTS, UNKNOWN_USER } from '../mock-panel/support/demo-users.js';

// Loaded under another name: the end-to-end fixture of the same name is always running beside it.
const EXAMPLE = { dir: join(REPO_ROOT, 'examples', 'lua_duty_menu'), name: 'example_lua_duty_menu' };

const chatLines = (player: SimPlayer) =>
  (player.chat.messages as Array<{ args: [string, string] }>).map(({ args }) => `${args[0]}: ${args[1]}`);

describe('the Lua duty menu example (examples/lua_duty_menu)', () => {
  let world: World;
  const exampleLog = () =>
    world.sim.console.filter((line) => line.resource === EXAMPLE.name && line.side === 'server').map((l) => l.text);

  beforeEach(async () => {
    world = await startWorld({ resources: [EXAMPLE], clock: 'virtual' });
  });
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  async function duty(player: SimPlayer, line: string) {
    player.command(line);
    await world.sim.settle();
  }

  it('lists the departments with their ranks on /duty, and offers the command in the chat', async () => {
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await duty(alex, 'duty');
    expect(chatLines(alex)).toEqual([
      'Duty: 1. Los Santos Police Department, Sergeant',
      "Duty: 2. Blaine County Sheriff's Office, Deputy",
      'Duty: /duty <number> goes on duty, /duty off goes off duty.',
    ]);
    expect(alex.chat.suggestions.get('/duty')).toMatchObject({ help: 'List your departments, or go on or off duty' });
  });

  it('goes on duty with /duty 2 and off with /duty off; the panel records the session, the server log both', async () => {
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await duty(alex, 'duty 2');
    await world.sim.until(() => world.panel.controls.sessions(TWO_DEPARTMENTS).length === 1, 10_000, 'the session');
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([
      expect.objectContaining({ departmentId: BCSO.id, rankId: BCSO.deputy, endedAt: null }),
    ]);
    expect(exampleLog()).toEqual(['Alex Mercer is on duty in department 2 as rank 4']);
    expect(alex.notifications.map((n) => n.text)).toEqual([
      "You are now on duty: Blaine County Sheriff's Office, Deputy.",
    ]);

    await duty(alex, 'duty');
    expect(chatLines(alex).at(-2)).toBe("Duty: 2. Blaine County Sheriff's Office, Deputy (on duty)");

    await world.sim.advance(125_000);
    await duty(alex, 'duty off');
    await world.sim.until(() => world.requests().includes('POST /api/leo/duty/off 200'), 10_000, 'the off call');
    expect(world.panel.controls.sessions(TWO_DEPARTMENTS)).toEqual([expect.objectContaining({ endedBy: 'off' })]);
    expect(exampleLog().at(-1)).toBe('Alex Mercer is off duty after 2 minute(s)');
    expect(world.eventArgs('bridge:server:playerOffDuty')).toEqual([[alex.id, 'request', false]]);
  });

  it('names a department that is not in the list, and changes nothing', async () => {
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await duty(alex, 'duty 7');
    await duty(alex, 'duty lspd');
    expect(chatLines(alex)).toEqual([
      'Duty: There is no department 7; /duty lists them.',
      'Duty: There is no department lspd; /duty lists them.',
    ]);
    expect(world.requests().filter((request) => request.startsWith('POST'))).toEqual([]);
  });

  it('tells a member of no department so, and a player the panel does not know how to sync', async () => {
    const riley = await world.join(NO_DEPARTMENTS, 'Riley Chen');
    await duty(riley, 'duty');
    expect(chatLines(riley)).toEqual(['Duty: You are not a member of any department.']);
    const stranger = await world.join(UNKNOWN_USER, 'Stranger');
    await duty(stranger, 'duty');
    expect(chatLines(stranger)).toEqual([expect.stringMatching(/^Duty: The panel does not know your chat account/)]);
  });
});
