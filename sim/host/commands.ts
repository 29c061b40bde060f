// RegisterCommand / ExecuteCommand on one side (fivem-runtime.md §6). Registering a name twice only replaces the
// handler; the command stays owned by its first registrant and goes away when that resource stops. On the server a
// player needs the ACE `command.<name>`: registering grants it to the registering resource, and a non-restricted
// command to builtin.everyone; both go with the command (citizenfx/fivem ResourceScriptFunctions.cpp).
import { pack } from '../codec/msgpack.js';
import type { AceStore } from '../server/aces.js';
import { tokenize } from '../server/console-line.js';
import type { Side, SimLog } from './log.js';

/** What a side's commands need of their host (host.ts): whose they are, its reference calls, the world's ACEs. */
export interface CommandHost {
  readonly side: Side;
  readonly playerId: number | null;
  invokeRef(ref: string, args: Uint8Array): Uint8Array;
  readonly world: {
    readonly aces: Pick<AceStore, 'addAce' | 'removeAce'>;
    readonly log: Pick<SimLog, 'print'>;
    isPlayerAceAllowed(player: unknown, object: string): boolean;
  };
}

interface Command {
  readonly name: string;
  readonly owner: string;
  ref: string;
  readonly restricted: boolean;
}

export class CommandRegistry {
  private readonly commands = new Map<string, Command>();

  constructor(private readonly host: CommandHost) {}

  register(owner: string, name: string, ref: string, restricted: boolean): void {
    const key = name.toLowerCase();
    const existing = this.commands.get(key);
    if (existing) {
      existing.ref = ref;
      return;
    }
    this.commands.set(key, { name, owner, ref, restricted });
    if (this.host.side !== 'server') return;
    this.host.world.aces.addAce(`resource.${owner}`, `command.${name}`, 'allow');
    if (!restricted) this.host.world.aces.addAce('builtin.everyone', `command.${name}`, 'allow');
  }

  has(name: string): boolean {
    return this.commands.has(name.toLowerCase());
  }

  names(): string[] {
    return [...this.commands.values()].map((c) => c.name);
  }

  unregisterOwner(owner: string): void {
    for (const [key, c] of this.commands) {
      if (c.owner !== owner) continue;
      this.commands.delete(key);
      if (this.host.side !== 'server') continue;
      this.host.world.aces.removeAce('builtin.everyone', `command.${c.name}`, 'allow');
      this.host.world.aces.removeAce(`resource.${owner}`, `command.${c.name}`, 'allow');
    }
  }

  /**
   * Runs a command line; `source` is the player's id, or 0 for the console and resources (and always 0 on a client).
   * Returns false when no such command is registered here.
   */
  execute(line: string, source: number): boolean {
    const raw = line.trim().replace(/^\//, '');
    const [name, ...args] = tokenize(raw);
    if (!name) return true;
    const command = this.commands.get(name.toLowerCase());
    if (!command) return false;
    const world = this.host.world;
    if (this.host.side === 'server' && source > 0 && !world.isPlayerAceAllowed(source, `command.${command.name}`)) {
      world.log.print('server', null, null, 'warn', `Access denied for command ${command.name}.`);
      return true;
    }
    try {
      this.host.invokeRef(command.ref, pack([source, args, raw], null));
    } catch (e) {
      world.log.print(this.host.side, this.host.playerId, command.owner, 'error', String(e));
    }
    return true;
  }
}
