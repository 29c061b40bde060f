// Player natives on the server (fivem-runtime.md §4.3) and the client's view of players. Unknown players give
// the native's default (0, null or false), as MakeClientFunction does.
import { int, str } from './args.js';
import { defineNatives } from './registry.js';

defineNatives('server', {
  GetPlayerName: (ctx, ...a) => ctx.host.world.player(str(a, 0))?.name ?? null,
  GetNumPlayerIdentifiers: (ctx, ...a) => ctx.host.world.player(str(a, 0))?.identifiers.length ?? 0,
  GetPlayerIdentifier: (ctx, ...a) => ctx.host.world.player(str(a, 0))?.identifiers[int(a, 1)] ?? null,
  /** A plain prefix match in list order, returning the full identifier: 'license' can match 'license2:…'. */
  GetPlayerIdentifierByType: (ctx, ...a) => {
    const type = str(a, 1);
    return ctx.host.world.player(str(a, 0))?.identifiers.find((id) => id.startsWith(type)) ?? null;
  },
  GetNumPlayerTokens: (ctx, ...a) => ctx.host.world.player(str(a, 0))?.tokens.length ?? 0,
  GetPlayerToken: (ctx, ...a) => ctx.host.world.player(str(a, 0))?.tokens[int(a, 1)] ?? null,
  GetNumPlayerIndices: (ctx) => ctx.host.world.players.joined().length,
  GetPlayerFromIndex: (ctx, ...a) => {
    const player = ctx.host.world.players.joined()[int(a, 0)];
    return player ? String(player.id) : null;
  },
  DoesPlayerExist: (ctx, ...a) => ctx.host.world.player(str(a, 0)) !== undefined,
  GetPlayerEndpoint: (ctx, ...a) => ctx.host.world.player(str(a, 0))?.endpoint ?? null,
  GetPlayerPing: (ctx, ...a) => (ctx.host.world.player(str(a, 0)) ? 30 : 0),
  GetPlayerLastMsg: (ctx, ...a) => (ctx.host.world.player(str(a, 0)) ? 0 : 99999),
  IsPlayerAceAllowed: (ctx, ...a) => ctx.host.world.isPlayerAceAllowed(str(a, 0), str(a, 1)),
  /** Returns false for a player that has not fully connected; otherwise drops on the next frame. */
  DropPlayer: (ctx, ...a) => {
    const world = ctx.host.world;
    const player = world.player(str(a, 0));
    if (player?.state !== 'joined') return false;
    const reason = a[1] === undefined || a[1] === null ? '' : String(a[1]);
    world.server.queueTask(() => world.dropPlayer(player, reason, ctx.resource, 1));
    return true;
  },
  GetPlayerFromStateBagName: (ctx, ...a) => {
    const m = /^player:(\d+)$/.exec(str(a, 0));
    return m && ctx.host.world.players.get(Number(m[1])) ? Number(m[1]) : 0;
  },
});

defineNatives('client', {
  PlayerId: (ctx) => ctx.host.world.players.get(ctx.host.playerId ?? 0)?.slot ?? -1,
  PlayerPedId: (ctx) => 256 + (ctx.host.world.players.get(ctx.host.playerId ?? 0)?.slot ?? 0),
  GetPlayerServerId: (ctx, ...a) => ctx.host.world.players.bySlot(int(a, 0))?.id ?? 0,
  GetPlayerName: (ctx, ...a) => ctx.host.world.players.bySlot(int(a, 0))?.name ?? '**Invalid**',
  NetworkIsPlayerActive: (ctx, ...a) => ctx.host.world.players.bySlot(int(a, 0)) !== undefined,
  GetActivePlayers: (ctx) => ctx.host.world.players.joined().map((p) => p.slot),
  GetPlayerFromServerId: (ctx, ...a) => ctx.host.world.players.get(int(a, 0))?.slot ?? -1,
  GetPlayerFromStateBagName: (ctx, ...a) => {
    const m = /^player:(\d+)$/.exec(str(a, 0));
    return (m && ctx.host.world.players.get(Number(m[1]))?.slot) ?? 0;
  },
});
