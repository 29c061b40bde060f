// The server console: server.cfg lines, ExecuteCommand and sim.command() all run here with source 0. The
// console's own commands (convars, ACEs, resource control) come first, then commands scripts registered.
import { startResource, stopResource } from '../host/lifecycle.js';
import type { World } from '../host/world.js';
import { tokenize } from './console-line.js';

export function runConsoleCommand(world: World, line: string): void {
  const [command, ...args] = tokenize(line);
  if (!command) return;
  const name = command.toLowerCase();
  const say = (text: string, level: 'log' | 'warn' | 'error' = 'log') =>
    world.log.print('server', null, null, level, text);
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
      world.aces.addAce(a, b, c || 'allow');
      return;
    case 'remove_ace':
      world.aces.removeAce(a, b, c || 'allow');
      return;
    case 'add_principal':
      world.aces.addPrincipal(a, b);
      return;
    case 'remove_principal':
      world.aces.removePrincipal(a, b);
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
  if (!world.server.commands.execute(line, 0)) say(`No such command ${command}.`, 'warn');
}

/** A command typed on a client: its own registration wins, otherwise the server runs it for that player. */
export function runClientCommand(world: World, playerId: number, line: string): void {
  const client = world.clients.get(playerId);
  if (!client) return;
  if (client.commands.execute(line, 0)) return;
  const raw = line.trim().replace(/^\//, '');
  world.sendToServer(playerId, '__cfx_internal:commandFallback', client.test.pack([raw]), null);
}
