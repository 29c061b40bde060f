import { Observable, Subject } from 'rxjs';
import { INTERNAL_EVENTS } from '../../../shared/events.js';
import { wiredExport, wireIntegers } from '../../../shared/wire-integers.js';
import type {
  ClientMessage,
  HttpAnswer,
  HttpRequest,
  KeyValueStore,
  PlayerDrop,
  PlayerStateWrite,
  ResourcePort,
  ServerPort,
  TxAdminEvent,
} from '../../kernel/index.js';
import { TXADMIN_EVENTS, TXADMIN_RESOURCE } from '../txadmin.js';

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

/** Resource KVP: persisted by FXServer per resource, so it survives resource and server restarts. */
export function createResourceKvpStore(): KeyValueStore {
  return {
    get: (key) => GetResourceKvpString(key) ?? null,
    // The synchronous variant: a record must be on disk before the call it describes is sent.
    set: (key, value) => SetResourceKvp(key, value),
    delete: (key) => DeleteResourceKvp(key),
    keys(prefix) {
      const handle = StartFindKvp(prefix);
      if (handle === -1) return [];
      const keys: string[] = [];
      try {
        for (let key = FindKvp(handle); typeof key === 'string' && key !== ''; key = FindKvp(handle)) keys.push(key);
      } finally {
        EndFindKvp(handle);
      }
      return keys;
    },
  };
}

/** Other resources as FXServer shows them: their state, their exports, and local server events. */
export function createResourcePort(): ResourcePort {
  return {
    resourceState: (name) => GetResourceState(name),
    hasExport(resource, name) {
      // A lookup of a missing export throws in FiveM; that is the answer "no".
      try {
        return typeof exports[resource]?.[name] === 'function';
      } catch {
        return false;
      }
    },
    callExport(resource, name, ...args) {
      const fn = exports[resource]?.[name];
      if (typeof fn !== 'function') throw new Error(`No such export ${name} in resource ${resource}`);
      return fn(...args);
    },
    emitLocal: (event, ...args) => emit(event, ...args),
    emitClient: (event, src, ...args) => emitNet(event, src, ...args),
    globalState: (key) => GlobalState[key],
    // Plain `on`, never `onNet`: a client must not be able to fake another resource's server event.
    onLocal: (event, handler) => on(event, handler),
  };
}

/** FXServer's request as SetHttpHandler hands it over (natives docs, ResourceHttpComponent.cpp). */
interface FxRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
}

interface FxResponse {
  writeHead(status: number, headers?: Record<string, string | string[]>): void;
  send(body?: string): void;
}

const lowerCaseNames = (headers: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));

/**
 * Registers the resource's HTTP handler. The handler answers at once: FXServer keeps a request open until `send`,
 * so a throw still answers, with a 500, instead of leaving the scraper hanging.
 */
export function serveHttp(handler: (request: HttpRequest) => HttpAnswer): void {
  SetHttpHandler((request: FxRequest, response: FxResponse) => {
    let answer: HttpAnswer;
    try {
      answer = handler({
        path: String(request.path ?? '/'),
        method: String(request.method ?? 'GET').toUpperCase(),
        headers: lowerCaseNames(request.headers),
      });
    } catch {
      answer = { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'internal error\n' };
    }
    response.writeHead(answer.status, answer.headers);
    response.send(answer.body);
  });
}
