// A player's way in and out (fivem-runtime.md §4.2): playerConnecting with a temporary id (cancel + setKickReason
// rejects; deferrals.defer() holds the connection until done()), then the final id and playerJoining, then the
// client starts every resource the server runs; playerDropped while the player can still be read.
import { startResource } from '../host/lifecycle.js';
import type { World } from '../host/world.js';
import type { PlayerRecord } from './players.js';

export interface JoinOptions {
  name?: string;
  /** `type:value` strings (`chat:123456789012345678`, `license:…`) or a record `{ chat: '123…' }`. */
  identifiers?: readonly string[] | Readonly<Record<string, string>>;
  tokens?: readonly string[];
  endpoint?: string;
  /** How long deferrals may hold the connection, in game time (default 60 s). */
  deferralTimeoutMs?: number;
}

export class ConnectionRejected extends Error {
  constructor(readonly reason: string) {
    super(`Connection rejected: ${reason}`);
  }
}

let anonymous = 0;

function identifierList(identifiers: JoinOptions['identifiers']): string[] {
  if (!identifiers) {
    anonymous++;
    return [`license:${anonymous.toString(16).padStart(40, '0')}`, 'ip:127.0.0.1'];
  }
  if (Array.isArray(identifiers)) return [...identifiers];
  return Object.entries(identifiers as Record<string, string>).map(([type, value]) => `${type}:${value}`);
}

export async function connectPlayer(world: World, options: JoinOptions): Promise<PlayerRecord> {
  const server = world.server;
  const identifiers = identifierList(options.identifiers);
  const record = world.players.connecting({
    name: options.name ?? `Player ${world.players.joined().length + 1}`,
    identifiers,
    tokens: options.tokens ?? [],
    endpoint: options.endpoint ?? '127.0.0.1:30120',
  });

  const state = {
    kickReason: '',
    deferred: false,
    done: false,
    rejection: null as string | null,
    cards: [] as unknown[],
  };
  const setKickReason = (reason: unknown) => {
    state.kickReason = String(reason ?? '');
  };
  const deferrals = {
    defer: () => {
      state.deferred = true;
    },
    update: (message: unknown) => {
      state.cards.push(message);
    },
    presentCard: (card: unknown) => {
      state.cards.push(card);
    },
    handover: () => {},
    done: (reason?: unknown) => {
      state.done = true;
      if (reason !== undefined && reason !== null && reason !== '') state.rejection = String(reason);
    },
  };
  const connecting = server.test.packKeepingRefs([record.name, setKickReason, deferrals]);
  record.connectionRefs = connecting.refs;
  server.triggerEvent('playerConnecting', connecting.bytes, `internal-net:${record.tempId}`, {
    sender: '__cfx_internal',
  });
  const reject = (reason: string): never => {
    world.players.remove(record);
    server.test.releaseUnheld(record.connectionRefs);
    throw new ConnectionRejected(reason);
  };
  if (server.wasEventCanceled()) reject(state.kickReason || 'Rejected by the server.');
  if (state.deferred && !state.done) {
    await world.driver.until(() => state.done, options.deferralTimeoutMs ?? 60_000, 'deferrals.done()');
  }
  if (state.rejection !== null) reject(state.rejection);

  await world.lua.reserve(world.startOrder.length + 2);
  world.players.join(record);
  server.stateBags.create(`player:${record.id}`);
  server.triggerEvent('playerJoining', server.test.pack([String(record.tempId)]), `internal-net:${record.id}`, {
    sender: '__cfx_internal',
  });

  const client = world.createHost('client', record.id);
  world.clients.set(record.id, client);
  world.seedClientStateBags(client, record.id);
  for (const name of world.startOrder) startResource(world, client, name);
  return record;
}

/** Fires playerDropped (the player is still readable in it), then removes the player and its client. */
export function dropPlayer(world: World, player: PlayerRecord, reason: string, resource: string, code: number): void {
  if (player.state !== 'joined') return;
  const server = world.server;
  server.triggerEvent(
    'playerDropped',
    server.test.pack([reason || 'Dropped.', resource, code]),
    `internal-net:${player.id}`,
    { sender: '__cfx_internal' },
  );
  const client = world.clients.get(player.id);
  client?.destroy();
  world.clients.delete(player.id);
  server.stateBags.remove(`player:${player.id}`);
  world.playerLeft(player.id);
  world.players.remove(player);
  server.test.releaseUnheld(player.connectionRefs);
}
