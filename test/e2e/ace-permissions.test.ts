// Config.AcePermissions in the simulator, against the mock panel: the principals across on, switch, off, drop, an
// orderly restart and a crash, seen by IsPlayerAceAllowed in another resource and by FXServer's own check of a
// restricted command. The bridge runs add_principal through ExecuteCommand as `resource.bridge`, as in FXServer.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimPlayer } from '../../sim/index.js';
import { BCSO, LSPD, ONE_DEPARTMENT, TWO_DEPARTMENTS } from '../mock-panel/support/demo-users.js';
import { changeDuty } from './support/bridge-exports.js';
import { MAY_CHANGE_PRINCIPALS, SPIKESTRIP_FOR_LSPD } from './support/supervisors.js';
import { startWorld, type World, type WorldOptions } from './support/world.js';

const DUTY_PERKS = join(import.meta.dirname, 'fixtures', 'duty_perks');
const MAY_CHANGE = MAY_CHANGE_PRINCIPALS;
const RULES = [SPIKESTRIP_FOR_LSPD];
const ALEX_ID = `identifier.chat:${TWO_DEPARTMENTS}`;
const ALEX_ACCOUNT = `bridge.account.chat:${TWO_DEPARTMENTS}`;
const IN_LSPD = [ALEX_ACCOUNT, 'bridge.lspd', `bridge.lspd.${LSPD.sergeant}`, 'bridge.onduty'];
const IN_BCSO = [ALEX_ACCOUNT, 'bridge.bcso', `bridge.bcso.${BCSO.deputy}`, 'bridge.onduty'];

interface Perks {
  spikestrips(): number[];
  allowed(src: number, object: string): boolean;
  heard(): Array<{ event: string; spikestrip: boolean }>;
}

describe('ACE principals that follow duty (Config.AcePermissions)', () => {
  let world: World;
  afterEach(async () => {
    world.sim.assertNoErrors();
    await world.close();
  });

  const perks = () => world.sim.exports.duty_perks as unknown as Perks;
  const start = (options: WorldOptions = {}) =>
    startWorld({
      clock: 'virtual',
      config: 'Config.AcePermissions = true',
      aces: [...MAY_CHANGE, ...RULES],
      resources: [DUTY_PERKS],
      ...options,
    });
  /** The server's inheritance table, as `list_principals` prints it. */
  const principalTable = () => {
    const mark = world.sim.console.length;
    world.sim.command('list_principals');
    return world.sim.console.slice(mark).map((line) => line.text);
  };
  const consoleLines = (text: string) => world.sim.console.filter((line) => line.text.includes(text));

  const duty = (player: SimPlayer, on: boolean, departmentIndex = 0) =>
    changeDuty(world.sim, player, on, departmentIndex);

  it('are held on duty, changed by a switch, gone off duty, and IsPlayerAceAllowed and /spikestrip follow', async () => {
    world = await start();
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    expect(sim.principalsOf(alex.id)).toEqual([]);

    expect(await duty(alex, true, 0)).toMatchObject({ ok: true, departmentId: LSPD.id });
    expect(sim.principalsOf(alex.id)).toEqual(IN_LSPD);
    expect(perks().allowed(alex.id, 'command.spikestrip')).toBe(true);
    expect(perks().allowed(jamie.id, 'command.spikestrip')).toBe(false);
    alex.command('spikestrip');
    jamie.command('spikestrip');
    await sim.settle();
    expect(perks().spikestrips()).toEqual([alex.id]);

    expect(await duty(alex, true, 1)).toMatchObject({ ok: true, departmentId: BCSO.id });
    expect(sim.principalsOf(alex.id)).toEqual(IN_BCSO);
    expect(perks().allowed(alex.id, 'command.spikestrip')).toBe(false);
    alex.command('spikestrip');
    await sim.settle();
    expect(perks().spikestrips()).toEqual([alex.id]);

    expect(await duty(alex, false)).toMatchObject({ ok: true, onDuty: false });
    expect(sim.principalsOf(alex.id)).toEqual([]);
    expect(principalTable()).toEqual([]);
    // The server events come after the principals: a listener checking the ACE sees the duty they announce.
    expect(perks().heard()).toEqual([
      { event: 'on', spikestrip: true },
      { event: 'off', spikestrip: false },
      { event: 'on', spikestrip: false },
      { event: 'off', spikestrip: false },
    ]);
    expect(consoleLines('Access denied for command add_principal')).toEqual([]);
  });

  it('are gone when the player drops, and when the bridge restarts; nobody has them after the restart', async () => {
    world = await start();
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await duty(alex, true);
    await duty(jamie, true);
    expect(sim.principalsOf(jamie.id)).toContain('bridge.safr');

    jamie.drop();
    await sim.settle();
    expect(principalTable().filter((line) => line.includes(ONE_DEPARTMENT))).toEqual([]);
    expect(principalTable()).toHaveLength(IN_LSPD.length);

    await sim.restartResource('bridge');
    await sim.until(() => consoleLines('the panel at').length === 2, 5000, 'the second start-up probe');
    expect(sim.principalsOf(alex.id)).toEqual([]);
    expect(principalTable()).toEqual([]);
    expect(consoleLines('left the ACE principals')).toEqual([]);
  });

  it('after a crash, are gone and the record the dead run kept is cleared: the owner’s own grants stay', async () => {
    const handGrant = `add_principal ${ALEX_ID} bridge.lspd`;
    world = await start({ aces: [...MAY_CHANGE, ...RULES, handGrant] });
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await duty(alex, true, 1);
    expect(sim.principalsOf(alex.id)).toEqual([
      ...IN_BCSO.slice(0, 2),
      'bridge.bcso.4',
      'bridge.lspd',
      'bridge.onduty',
    ]);

    await sim.kill();
    await sim.restart();
    await sim.until(() => consoleLines('left the ACE principals').length > 0, 5000, 'the recovery');
    expect(consoleLines('left the ACE principals').map((line) => line.text)).toEqual([
      'INFO: the last run left the ACE principals of 1 chat account(s) in place (a crash?); they are removed now',
    ]);
    expect(principalTable()).toEqual([`${ALEX_ID} <- bridge.lspd`]);
    const back = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    expect(sim.principalsOf(back.id)).toEqual(['bridge.lspd']);
    expect(perks().allowed(back.id, 'command.spikestrip')).toBe(true);

    // A second start finds nothing left over.
    await sim.restart();
    await sim.until(() => consoleLines('the panel at').length >= 3, 5000, 'the third start-up probe');
    expect(consoleLines('left the ACE principals')).toHaveLength(1);
  });

  it("never removes an owner's hand grant of the same principal, going off duty", async () => {
    world = await start({ aces: [...MAY_CHANGE, ...RULES, `add_principal ${ALEX_ID} bridge.lspd`] });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await duty(alex, true, 0);
    await duty(alex, false);
    expect(world.sim.principalsOf(alex.id)).toEqual(['bridge.lspd']);
    expect(perks().allowed(alex.id, 'command.spikestrip')).toBe(true);
  });

  it('left in place by a bridge that lost its ACE are taken back when it starts with the ACE again', async () => {
    world = await start();
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await duty(alex, true, 0);
    sim.command('remove_ace resource.bridge command.remove_principal allow');
    await duty(alex, false);
    expect(sim.principalsOf(alex.id)).toEqual(IN_LSPD);
    expect(consoleLines('may not run remove_principal').map((line) => line.text)).toEqual([
      `ERROR: the bridge may not run remove_principal: add \`add_ace resource.bridge command.remove_principal allow\` to server.cfg (the ACE principals of player ${alex.id} stay until then)`,
    ]);

    sim.command('add_ace resource.bridge command.remove_principal allow');
    await sim.restartResource('bridge');
    expect(consoleLines('left the ACE principals')).toHaveLength(1);
    expect(sim.principalsOf(alex.id)).toEqual([]);
    expect(principalTable()).toEqual([]);
  });

  it('are not given, and the console says which server.cfg lines are missing, without the ACE to add them', async () => {
    world = await start({ aces: RULES });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    expect(await duty(alex, true)).toMatchObject({ ok: true, onDuty: true });
    expect(world.sim.principalsOf(alex.id)).toEqual([]);
    expect(consoleLines('may not run add_principal').map((line) => line.text)).toEqual([
      'ERROR: the bridge may not run add_principal and remove_principal: add `add_ace resource.bridge command.add_principal allow` and `add_ace resource.bridge command.remove_principal allow` to server.cfg (players on duty get no ACE principals until then)',
    ]);
    expect(consoleLines('Access denied')).toEqual([]);
  });

  it('reach the players already on duty once the bridge gains the ACEs, at the next change of anyone’s duty', async () => {
    world = await start({ aces: RULES });
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await duty(alex, true, 0);
    expect(sim.principalsOf(alex.id)).toEqual([]);

    // The owner adds the lines in the live console, as the ERROR asked.
    for (const line of MAY_CHANGE) sim.command(line);
    await duty(jamie, true);
    expect(sim.principalsOf(alex.id)).toEqual(IN_LSPD);
    expect(perks().allowed(alex.id, 'command.spikestrip')).toBe(true);

    await duty(alex, false);
    expect(sim.principalsOf(alex.id)).toEqual([]);
    expect(principalTable().filter((line) => line.includes(TWO_DEPARTMENTS))).toEqual([]);
  });

  it('are never given to a player who went off duty while the bridge lacked the ACEs', async () => {
    world = await start({ aces: RULES });
    const { sim } = world;
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    const jamie = await world.join(ONE_DEPARTMENT, 'Jamie Rivera');
    await duty(alex, true, 0);
    await duty(alex, false);
    for (const line of MAY_CHANGE) sim.command(line);
    await duty(jamie, true);
    expect(sim.principalsOf(alex.id)).toEqual([]);
    expect(sim.principalsOf(jamie.id)).toContain('bridge.safr');
  });

  it('are never given with Config.AcePermissions left off', async () => {
    world = await start({ config: 'Config.AcePermissions = false' });
    const alex = await world.join(TWO_DEPARTMENTS, 'Alex Mercer');
    await duty(alex, true);
    expect(world.sim.principalsOf(alex.id)).toEqual([]);
    expect(principalTable()).toEqual([]);
  });
});
