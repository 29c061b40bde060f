// Convars from server.cfg and commands with ACEs (fivem-runtime.md §5, §6).
import { afterEach, describe, expect, it } from 'vitest';
import {
  adminChatId,
  coreDir,
  entries,
  logOf,
  manifest,
  startFixtures,
  tempResource,
} from '../../bench/support/sim-fixtures.js';
import type { Sim } from '../../sim/index.js';

let sim: Sim;
afterEach(() => sim?.stop());

describe('convars', () => {
  it('reads server.cfg convars with FXServer’s parsing, from JS and Lua', async () => {
    sim = await startFixtures();
    expect(sim.exports.sim_core.Convars()).toEqual({
      plain: 'plain value',
      replicated: 'replicated value',
      missing: 'fallback',
      zeroDefault: null,
      int: 42,
      intGarbage: 7,
      float: 2.5,
      boolTrue: true,
      boolYes: true,
    });
    expect(sim.exports.sim_consumer.Convars()).toEqual({
      plain: 'plain value',
      int: 42,
      intGarbage: 7,
      bool: true,
      yes: true,
    });
  });

  it('shows clients only `setr` convars (JS and Lua), and a later `set` keeps one replicated', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    expect(p.exports.sim_core.Convars()).toEqual({ plain: 'hidden', replicated: 'replicated value' });
    expect(p.exports.sim_consumer.Convars()).toEqual(['hidden', 'replicated value']);
    sim.command('set sim_replicated changed');
    expect(p.convar('sim_replicated')).toBe('changed');
    expect(p.convar('sim_plain')).toBeUndefined();
  });

  it('accepts convars as a record', async () => {
    sim = await startFixtures({
      convars: { sim_plain: 'from record', sim_replicated: { value: 'r', replicated: true } },
    });
    const p = await sim.join();
    expect(sim.convar('sim_plain')).toBe('from record');
    expect(p.convar('sim_replicated')).toBe('r');
  });
});

describe('the console as a server.cfg writes to it', () => {
  it('runs comment-only lines as nothing, and hands every printed line to an echo function', async () => {
    const heard: Array<{ resource: string | null; text: string }> = [];
    sim = await startFixtures({
      convars: '# a comment line\n  // another\nset sim_plain "from cfg" # and a comment after a line\nsett typo',
      echo: ({ resource, text }) => heard.push({ resource, text }),
    });
    expect(sim.convar('sim_plain')).toBe('from cfg');
    expect(heard).toContainEqual({ resource: null, text: 'No such command sett.' });
    expect(heard.filter((line) => line.text.startsWith('No such command'))).toHaveLength(1);
    expect(heard).toEqual(sim.console.map(({ resource, text }) => ({ resource, text })));
  });
});

describe('commands', () => {
  it('runs a JS server command with (source, args, raw) for a player and for the console', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.command('/corecmd hello "two words"');
    await sim.settle();
    sim.command('corecmd from console');
    expect(entries(logOf(sim, 'sim_core'), 'corecmd')).toEqual([
      { kind: 'corecmd', src: p.id, args: ['hello', 'two words'], raw: 'corecmd hello "two words"' },
      { kind: 'corecmd', src: 0, args: ['from', 'console'], raw: 'corecmd from console' },
    ]);
  });

  it('refuses a restricted command without the ACE and allows it through add_ace/add_principal (JS and Lua)', async () => {
    sim = await startFixtures();
    const player = await sim.join({ name: 'Player' });
    const admin = await sim.join({ name: 'Admin', identifiers: [`chat:${adminChatId}`] });
    player.command('coreadmin nope');
    player.command('luacmd nope');
    admin.command('coreadmin yes');
    admin.command('luacmd yes');
    await sim.settle();
    expect(entries(logOf(sim, 'sim_core'), 'coreadmin')).toEqual([
      { kind: 'coreadmin', src: admin.id, args: ['yes'], raw: 'coreadmin yes' },
    ]);
    expect(entries(logOf(sim, 'sim_consumer'), 'luacmd')).toEqual([
      { kind: 'luacmd', src: admin.id, args: ['yes'], raw: 'luacmd yes' },
    ]);
    expect(sim.console.filter((l) => l.text.startsWith('Access denied for command')).map((l) => l.text)).toEqual([
      'Access denied for command coreadmin.',
      'Access denied for command luacmd.',
    ]);
  });

  it('answers IsPlayerAceAllowed through principals inherited from identifiers', async () => {
    sim = await startFixtures({
      aces: ['add_ace builtin.everyone command.public allow', 'add_ace group.admin bridge.admin allow'],
    });
    const player = await sim.join();
    const admin = await sim.join({ identifiers: [`chat:${adminChatId}`] });
    expect(sim.exports.sim_core.Ace(player.id, 'command.public')).toBe(true);
    expect(sim.exports.sim_core.Ace(player.id, 'bridge.admin')).toBe(false);
    expect(sim.exports.sim_core.Ace(admin.id, 'bridge.admin')).toBe(true);
    expect(sim.exports.sim_core.Ace(admin.id, 'bridge.admin.force')).toBe(true);
    sim.command(`add_ace identifier.chat:${adminChatId} bridge.admin.force deny`);
    expect(sim.exports.sim_core.Ace(admin.id, 'bridge.admin.force')).toBe(false);
  });

  it('lists the principals a player is in, inherited ones too, until remove_principal takes them out', async () => {
    sim = await startFixtures({ aces: ['add_principal group.admin group.moderator'] });
    const player = await sim.join();
    const admin = await sim.join({ identifiers: ['license:abc', `chat:${adminChatId}`] });
    expect(sim.principalsOf(player.id)).toEqual([]);
    expect(sim.principalsOf(admin.id)).toEqual(['group.admin', 'group.moderator']);
    sim.command(`add_principal identifier.license:abc bridge.lspd`);
    sim.command(`add_principal player.${admin.id} bridge.onduty`);
    expect(sim.principalsOf(admin.id)).toEqual(['bridge.lspd', 'bridge.onduty', 'group.admin', 'group.moderator']);
    sim.command(`remove_principal identifier.chat:${adminChatId} group.admin`);
    sim.command('remove_principal identifier.license:abc bridge.lspd');
    expect(sim.principalsOf(admin.id)).toEqual(['bridge.onduty']);
    expect(sim.principalsOf(999)).toEqual([]);
  });

  it('runs client commands on the client with source 0 (JS and Lua); unknown ones fall back to the server', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    p.command('clientcmd a b');
    p.command('luaclient c');
    expect(entries(p.exports.sim_core.GetLog() as Record<string, unknown>[], 'clientcmd')).toEqual([
      { kind: 'clientcmd', src: 0, args: ['a', 'b'], raw: 'clientcmd a b' },
    ]);
    expect(entries(p.exports.sim_consumer.GetLog() as Record<string, unknown>[], 'luaclient')).toEqual([
      { kind: 'luaclient', src: 0, args: ['c'], raw: 'luaclient c' },
    ]);
    expect(sim.eventsNamed('__cfx_internal:commandFallback')).toEqual([]);
    p.command('corecmd via fallback');
    await sim.settle();
    expect(sim.eventsNamed('__cfx_internal:commandFallback')).toHaveLength(1);
    expect(entries(logOf(sim, 'sim_core'), 'corecmd')).toEqual([
      { kind: 'corecmd', src: p.id, args: ['via', 'fallback'], raw: 'corecmd via fallback' },
    ]);
  });

  it('records chat suggestions and messages a client adds (JS and Lua)', async () => {
    sim = await startFixtures();
    const p = await sim.join();
    expect(p.chat.suggestions.get('/clientcmd')).toEqual({
      name: '/clientcmd',
      help: 'a client command',
      params: [{ name: 'word', help: 'any word' }],
    });
    expect(p.chat.suggestions.get('/luaclient')?.help).toBe('a Lua client command');
    expect(p.chat.messages).toEqual([{ args: ['sim_core', 'client ready'] }]);
  });

  it('runs ExecuteCommand from a script as the console', async () => {
    const dir = tempResource('executor', {
      'fxmanifest.lua': manifest("server_script 'server.lua'"),
      'server.lua': "ExecuteCommand('setr executed yes')\nExecuteCommand('corecmd from lua')",
    });
    sim = await startFixtures({ resources: [coreDir, dir] });
    expect(sim.convar('executed')).toBe('yes');
    expect(entries(logOf(sim, 'sim_core'), 'corecmd')).toEqual([
      { kind: 'corecmd', src: 0, args: ['from', 'lua'], raw: 'corecmd from lua' },
    ]);
  });
});
