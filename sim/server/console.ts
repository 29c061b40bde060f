// The server console: server.cfg lines and sim.command() run here as `system.console`, a resource's ExecuteCommand
// as `resource.<name>`, all with source 0. Every command, the console's own (convars, ACEs, resource control) and
// those scripts registered, needs the ACE `command.<name>` of whoever runs it (citizenfx/fivem
// code/client/citicore/console/Console.Commands.cpp): the console has `command` itself; a resource needs it granted,
// e.g. `add_ace resource.bridge command.add_principal allow`, except for the commands it registered.

import type { HostWorld } from '../host/host.js';
import { startResource, stopResource } from '../host/lifecycle.js';
import { tokenize } from './console-line.js';

const BUILT_IN = new Set([
  'set',
  'seta',
  'setr',
  'sets',
  'add_ace',
  'remove_ace',
  'add_principal',
  'remove_principal',
  'list_aces',
  'list_principals',
  'test_ace',
  'start',
  'stop',
  'restart',
  'ensure',
]);

export function runConsoleCommand(world: HostWorld, line: string): void {
  const [command, ...args] = tokenize(line);
  if (!command) return;
  const name = command.toLowerCase();
  const say = (text: string, level: 'log' | 'warn' | 'error' = 'log') =>
    world.log.print('server', null, null, level, text);
  if (!BUILT_IN.has(name) && !world.server.commands.has(name)) {
    say(`No such command ${command}.`, 'warn');
    return;
  }
  if (!world.isAllowedNow(`command.${name}`)) {
    say(`Access denied for command ${name}.`, 'warn');
    return;
  }
  const [a = '', b = '', c = ''] = args;
  switch (name) {
    case 'set':
    case 'seta':
      world.convars.set(a, args.slice(1).join(' '));
      return;
    case 'setr':
      world.convars.set(a, args.slice(1).join(' '), { replicated: true });
      return;
    case 'sets':
      world.convars.set(a, args.slice(1).join(' '), { serverInfo: true });
      return;
    case 'add_ace':
      if (accessType(c, say)) world.aces.addAce(a, b, c);
      return;
    case 'remove_ace':
      if (accessType(c, say)) world.aces.removeAce(a, b, c);
      return;
    case 'add_principal':
      world.aces.addPrincipal(a, b);
      return;
    case 'remove_principal':
      world.aces.removePrincipal(a, b);
      return;
    case 'list_aces':
      for (const entry of world.aces.aceLines()) say(entry);
      return;
    case 'list_principals':
      for (const entry of world.aces.principalLines()) say(entry);
      return;
    case 'test_ace':
      say(`${a} -> ${b} = ${world.aces.isAllowed(a, b)}`);
      return;
    case 'start':
      if (!startResource(world, world.server, a)) say(`Couldn't start resource ${a}.`, 'error');
      return;
    case 'stop':
      stopResource(world, world.server, a);
      return;
    case 'restart':
      if (stopResource(world, world.server, a)) startResource(world, world.server, a);
      return;
    case 'ensure':
      stopResource(world, world.server, a);
      startResource(world, world.server, a);
      return;
  }
  world.server.commands.execute(line, 0);
}

/** add_ace / remove_ace take `allow` or `deny` and nothing else. */
function accessType(mode: string, say: (text: string) => void): boolean {
  if (mode === 'allow' || mode === 'deny') return true;
  say("Access type needs to be 'allow' or 'deny'.");
  return false;
}

/** A command typed on a client: its own registration wins, otherwise the server runs it for that player. */
export function runClientCommand(world: HostWorld, playerId: number, line: string): void {
  const client = world.clients.get(playerId);
  if (!client) return;
  if (client.commands.execute(line, 0)) return;
  const raw = line.trim().replace(/^\//, '');
  world.sendToServer(playerId, '__cfx_internal:commandFallback', client.test.pack([raw]), null);
}
