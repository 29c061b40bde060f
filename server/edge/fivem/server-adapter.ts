import { Observable, Subject } from 'rxjs';
import { INTERNAL_EVENTS } from '../../../shared/events.js';
import { wiredExport, wireIntegers } from '../../../shared/wire-integers.js';
import type { ClientMessage, PlayerDrop, PlayerStateWrite, ServerPort, TxAdminEvent } from '../../kernel/index.js';
import { TXADMIN_EVENTS, TXADMIN_RESOURCE } from '../txadmin.js';
import { serveHttp } from './http-handler.js';
import { createResourceKvpStore } from './resource-kvp.js';
import { createResourcePort } from './resource-port.js';

// FXServer sets `source` per dispatch and resets it afterwards, so every handler copies it first.
// Net events carry the player's id; anything else (a local emit, "" or null) is not a player.
const playerSource = (): number | undefined => {
  const src = Number(source);
  return Number.isInteger(src) && src > 0 ? src : undefined;
};

function netStream(name: string): Subject<ClientMessage> {
  const stream = new Subject<ClientMessage>();
  onNet(name, (...args: unknown[]) => {
    const src = playerSource();
    if (src !== undefined) stream.next({ src, args });
  });
  return stream;
}

/** The server side's one contact with FiveM globals. */
export function createServerPort(onStop: () => void): ServerPort {
  const resourceName = GetCurrentResourceName();
  const joins$ = new Subject<number>();
  const drops$ = new Subject<{ src: number } & PlayerDrop>();
  const txAdminEvents$ = new Subject<TxAdminEvent>();

  on('playerJoining', () => {
    const src = playerSource();
    if (src !== undefined) joins$.next(src);
  });
  on('playerDropped', (reason: unknown, resource: unknown, code: unknown) => {
    const src = playerSource();
    if (src === undefined) return;
    drops$.next({
      src,
      reason: String(reason ?? ''),
      resource: String(resource ?? ''),
      code: Number(code) || undefined,
    });
  });
  // Plain `on`: FXServer refuses a client's net event of these names (not safe for net). They are local events of
  // txAdmin's monitor resource (sv_main.lua, txaEvent), so one fired by any other resource is not heard either.
  for (const name of TXADMIN_EVENTS) {
    on(`txAdmin:events:${name}`, (data: unknown) => {
      if (playerSource() === undefined && GetInvokingResource() === TXADMIN_RESOURCE)
        txAdminEvents$.next({ name, data });
    });
  }
  on('onResourceStop', (name: string) => {
    if (name === resourceName) onStop();
  });

  return {
    joins$,
    drops$,
    txAdminEvents$,
    clientReady$: netStream(INTERNAL_EVENTS.clientReady),
    dutyRequests$: netStream(INTERNAL_EVENTS.dutyRequest),
    refreshRequests$: netStream(INTERNAL_EVENTS.refreshRequest),
    refreshOtherRequests$: netStream(INTERNAL_EVENTS.refreshOtherRequest),
    revalidateRequests$: netStream(INTERNAL_EVENTS.revalidateRequest),
    tokenProofs$: netStream(INTERNAL_EVENTS.tokenProof),
    playerName: (src) => GetPlayerName(String(src)) ?? `player ${src}`,
    playerIdentifiers: (src) => getPlayerIdentifiers(String(src)) ?? [],
    connectedPlayers: () => getPlayers().map(Number),
    emitLocal: (event, ...args) => emit(event, ...wireIntegers(args)),
    emitClient: (event, src, ...args) => emitNet(event, src, ...wireIntegers(args)),
    print: (line) => console.log(line),
    registerCommand(name, handler, restricted) {
      // Commands do not set `source`: FXServer passes who ran it (0 for the console) as the first argument.
      RegisterCommand(
        name,
        (src: unknown, args: unknown) => handler(Number(src) || 0, Array.isArray(args) ? args.map(String) : []),
        restricted,
      );
    },
    reply(src, line) {
      if (src > 0) emitNet('chat:addMessage', src, { args: ['bridge', line] });
      else console.log(line);
    },
    resourceName,
    resourcePath: GetResourcePath(resourceName),
    executeCommand: (line) => ExecuteCommand(line),
    isPrincipalAceAllowed: (principal, object) => IsPrincipalAceAllowed(principal, object),
    isPlayerAceAllowed: (src, object) => IsPlayerAceAllowed(String(src), object),
    setGlobalState: (key, value) => GlobalState.set(key, wireIntegers(value), true),
    convar: (name) => GetConvar(name, ''),
    readConfig() {
      try {
        return { value: exports[resourceName]?.GetConfig?.() };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },
    store: createResourceKvpStore(),
    registerExport: (name, fn) => exports(name, wiredExport(fn)),
    // The third argument matters in JS: without `true` the value is not replicated, even on the server.
    setPlayerState: (src, key, value) => Player(src).state.set(key, wireIntegers(value), true),
    playerStateWrites: (keys) =>
      new Observable<PlayerStateWrite>((subscriber) => {
        // One handler per key on every bag; the handler runs before FXServer stores the value.
        const cookies = keys.map((key) =>
          AddStateBagChangeHandler(
            key,
            null as unknown as string,
            (bagName: string, changed: string, value: unknown) => {
              const src = GetPlayerFromStateBagName(bagName);
              if (src > 0) subscriber.next({ src, key: changed, value: value ?? null });
            },
          ),
        );
        return () => {
          for (const cookie of cookies) RemoveStateBagChangeHandler(cookie);
        };
      }),
    httpHandler: serveHttp,
    resources: createResourcePort(),
  };
}
