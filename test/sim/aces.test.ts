// ACEs and principals as FXServer keeps them (citizenfx/fivem se/Security.cpp, Console.Commands.cpp,
// ResourceScriptFunctions.cpp at 06d4d348): who may run a console command, what add_principal / remove_principal do
// when a resource runs them through ExecuteCommand, and what IsPlayerAceAllowed then answers.
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, tempResource } from '../../bench/support/sim-fixtures.js';
import { createSim, type Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());

const CHAT = 'chat:284619375016482817';

// A server script that runs a console line whenever asked (after its start, as a duty change would) and records
// what IsPlayerAceAllowed / IsPrincipalAceAllowed answer.
const granter = () =>
  tempResource('granter', {
    'fxmanifest.lua': manifest("server_script 'server.lua'"),
    'server.lua': `
      exports('Run', function(line) ExecuteCommand(line) end)
      exports('PlayerAce', function(id, object) return IsPlayerAceAllowed(id, object) end)
      exports('PrincipalAce', function(principal, object) return IsPrincipalAceAllowed(principal, object) end)
      RegisterCommand('granter_own', function() print('granter_own ran') end, true)
    `,
  });

const denied = (name: string) => sim.console.filter((line) => line.text === `Access denied for command ${name}.`);

async function start(aces: string[] = []): Promise<{ run: (line: string) => void; playerId: number }> {
  sim = await createSim({ resources: [granter()], clock: 'virtual', aces });
  const player = await sim.join({ identifiers: [CHAT, 'license:abc'] });
  return { run: (line) => sim.exports.granter.Run(line), playerId: player.id };
}

describe("a resource's ExecuteCommand", () => {
  it('is refused add_principal and remove_principal without their ACE, as FXServer refuses it', async () => {
    const { run, playerId } = await start(['add_ace bridge.lspd command.spikestrip allow']);
    run(`add_principal identifier.${CHAT} bridge.lspd`);
    expect(denied('add_principal')).toHaveLength(1);
    expect(sim.principalsOf(playerId)).toEqual([]);
    expect(sim.exports.granter.PlayerAce(playerId, 'command.spikestrip')).toBe(false);

    sim.command(`add_principal identifier.${CHAT} bridge.lspd`);
    run(`remove_principal identifier.${CHAT} bridge.lspd`);
    expect(denied('remove_principal')).toHaveLength(1);
    expect(sim.principalsOf(playerId)).toEqual(['bridge.lspd']);
  });

  it('adds and removes principals with `command.add_principal` / `command.remove_principal` granted to it', async () => {
    const { run, playerId } = await start([
      'add_ace resource.granter command.add_principal allow',
      'add_ace resource.granter command.remove_principal allow',
      'add_ace bridge.lspd command.spikestrip allow',
    ]);
    run('add_principal bridge.account.1 bridge.lspd');
    run(`add_principal identifier.${CHAT} bridge.account.1`);
    expect(sim.principalsOf(playerId)).toEqual(['bridge.account.1', 'bridge.lspd']);
    expect(sim.exports.granter.PlayerAce(playerId, 'command.spikestrip')).toBe(true);
    expect(sim.isPlayerAceAllowed(playerId, 'command.spikestrip')).toBe(true);
    expect(sim.exports.granter.PrincipalAce('bridge.account.1', 'command.spikestrip')).toBe(true);

    run(`remove_principal identifier.${CHAT} bridge.account.1`);
    expect(sim.principalsOf(playerId)).toEqual([]);
    expect(sim.exports.granter.PlayerAce(playerId, 'command.spikestrip')).toBe(false);
    expect(denied('add_principal')).toEqual([]);
  });

  it('knows principals and objects in any case: FXServer keeps them lowercased (se/Security.h)', async () => {
    const { run, playerId } = await start([
      'add_ace Resource.Granter command.add_principal allow',
      'add_ace resource.granter COMMAND.remove_principal allow',
      'add_ace bridge.lspd command.spikestrip allow',
    ]);
    run(`add_principal identifier.${CHAT} BRIDGE.LSPD`);
    expect(denied('add_principal')).toEqual([]);
    expect(sim.principalsOf(playerId)).toEqual(['bridge.lspd']);
    expect(sim.exports.granter.PlayerAce(playerId, 'Command.SpikeStrip')).toBe(true);
    expect(sim.exports.granter.PrincipalAce('Bridge.Lspd', 'command.spikestrip')).toBe(true);

    // One entry, whatever case each line used: a remove in another case takes it back.
    run(`add_principal identifier.${CHAT} bridge.lspd`);
    run(`remove_principal IDENTIFIER.${CHAT} bridge.Lspd`);
    expect(sim.principalsOf(playerId)).toEqual([]);
    sim.command('list_principals');
    expect(sim.console.filter((line) => line.text.includes(' <- '))).toEqual([]);
  });

  it('gets `command` as a whole from one ACE on the parent object', async () => {
    const { run, playerId } = await start(['add_ace resource.granter command allow']);
    run(`add_principal identifier.${CHAT} bridge.onduty`);
    expect(sim.principalsOf(playerId)).toEqual(['bridge.onduty']);
  });

  it('runs as the console while the console starts the resource (top-level code of a resource in server.cfg)', async () => {
    const dir = tempResource('boot_granter', {
      'fxmanifest.lua': manifest("server_script 'server.lua'"),
      'server.lua': `ExecuteCommand('add_principal identifier.${CHAT} group.boot')`,
    });
    sim = await createSim({ resources: [dir], clock: 'virtual' });
    const player = await sim.join({ identifiers: [CHAT] });
    expect(sim.principalsOf(player.id)).toEqual(['group.boot']);
  });

  it("runs the resource's own restricted commands, but not another resource's", async () => {
    const other = tempResource('other', {
      'fxmanifest.lua': manifest("server_script 'server.lua'"),
      'server.lua': "RegisterCommand('other_only', function() print('other_only ran') end, true)",
    });
    sim = await createSim({ resources: [granter(), other], clock: 'virtual' });
    sim.exports.granter.Run('granter_own');
    sim.exports.granter.Run('other_only');
    const printed = sim.console.map((line) => line.text);
    expect(printed.filter((text) => text.endsWith(' ran'))).toEqual(['granter_own ran']);
    expect(denied('other_only')).toHaveLength(1);
  });

  it("loses the resource its own commands' ACEs when it stops", async () => {
    sim = await createSim({ resources: [granter()], clock: 'virtual' });
    expect(sim.exports.granter.PrincipalAce('resource.granter', 'command.granter_own')).toBe(true);
    await sim.stopResource('granter');
    sim.command('test_ace resource.granter command.granter_own');
    expect(sim.console.at(-1)?.text).toBe('resource.granter -> command.granter_own = false');
  });
});

describe('principal inheritance', () => {
  it('is a multimap: a remove_principal takes away every add_principal of that pair, whoever made it', async () => {
    const { run, playerId } = await start([
      `add_principal identifier.${CHAT} bridge.lspd`,
      'add_ace resource.granter command allow',
    ]);
    run(`add_principal identifier.${CHAT} bridge.lspd`);
    run(`remove_principal identifier.${CHAT} bridge.lspd`);
    expect(sim.principalsOf(playerId)).toEqual([]);
  });

  it('is listed by list_principals as FXServer prints it', async () => {
    await start([`add_principal identifier.${CHAT} group.admin`, 'add_principal group.admin group.mod']);
    sim.clearLogs();
    sim.command('list_principals');
    expect(sim.console.map((line) => line.text)).toEqual([
      `identifier.${CHAT} <- group.admin`,
      'group.admin <- group.mod',
    ]);
  });
});

describe('an ACE check', () => {
  it('lets a deny on a parent object win over an allow on the object itself', async () => {
    const { playerId } = await start([
      `add_principal identifier.${CHAT} group.sgt`,
      'add_ace group.sgt command.spikestrip allow',
      'add_ace group.sgt command deny',
    ]);
    expect(sim.isPlayerAceAllowed(playerId, 'command.spikestrip')).toBe(false);
  });

  it("checks a player's principals one by one: a deny on one does not take away another's allow", async () => {
    const { playerId } = await start([
      'add_ace identifier.license:abc command.spikestrip deny',
      `add_ace identifier.${CHAT} command.spikestrip allow`,
    ]);
    expect(sim.isPlayerAceAllowed(playerId, 'command.spikestrip')).toBe(true);
  });

  it('refuses an add_ace whose access type is neither allow nor deny', async () => {
    const { playerId } = await start(['add_ace builtin.everyone command.spikestrip yes']);
    expect(sim.console.map((line) => line.text)).toContain("Access type needs to be 'allow' or 'deny'.");
    expect(sim.isPlayerAceAllowed(playerId, 'command.spikestrip')).toBe(false);
  });
});
