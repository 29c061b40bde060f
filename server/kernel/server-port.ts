import type { Observable } from 'rxjs';
import type { LoadModule } from './optional-module.js';
import type { KeyValueStore } from './storage.js';

/**
 * What integrations may do in FXServer: look at other resources, call their exports, and use local server
 * events. The FiveM adapter implements it; tests use stub resources in the simulator or a fake.
 */
export interface ResourcePort {
  /** `GetResourceState`: 'started', 'stopped', 'missing', ... */
  resourceState(name: string): string;
  /**
   * Whether `exports[resource][name]` exists right now. In FiveM reading the property is the lookup, and it throws
   * `No such export` when nothing answers: `try { return typeof exports[resource][name] === 'function' } catch { return false }`.
   */
  hasExport(resource: string, name: string): boolean;
  /** `exports[resource][name](...args)`; throws as FiveM does when the export is missing or fails. */
  callExport(resource: string, name: string, ...args: unknown[]): unknown;
  emitLocal(event: string, ...args: unknown[]): void;
  /** A net event to one player's client (`emitNet(event, src, ...args)`). */
  emitClient(event: string, src: number, ...args: unknown[]): void;
  /** A value of the global state bag (`GlobalState[key]`), where ox_core publishes its groups. */
  globalState(key: string): unknown;
  /** Listens to a local server event (`on`, never `onNet`); the handler receives the event's arguments. */
  onLocal(event: string, handler: (...args: unknown[]) => void): void;
}

/** `playerDropped`'s arguments: the reason text, the resource that dropped the player, and FXServer's code. */
export interface PlayerDrop {
  reason: string;
  /** `__cfx_internal:client`, `__cfx_internal:server`, or the resource that called DropPlayer. Empty when unknown. */
  resource: string;
  /** ClientDropReason; undefined on artifacts that pass only the reason. */
  code: number | undefined;
}

export interface ClientMessage {
  src: number;
  args: unknown[];
}

/** A set on a player's state bag as FXServer's change handlers see it: before it is stored, whoever made it. */
export interface PlayerStateWrite {
  src: number;
  key: string;
  /** null when the key is deleted. */
  value: unknown;
}

/** A request to the resource's HTTP endpoint (`http://server:30120/<resource>/…`). */
export interface HttpRequest {
  /** The path after the resource's prefix, query string included: `/metrics`. */
  path: string;
  method: string;
  /** Header names in lower case (FXServer passes them as the client wrote them). */
  headers: Readonly<Record<string, string>>;
}

/** A `txAdmin:events:<name>` server event that txAdmin's monitor resource fired, with its payload as it came. */
export interface TxAdminEvent {
  name: string;
  data: unknown;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Everything the bridge needs from FXServer. The FiveM adapter is the only implementation that touches natives,
 * events and `source`; the rest of the server is plain TypeScript that tests drive directly.
 */
export interface ServerPort {
  readonly joins$: Observable<number>;
  readonly drops$: Observable<{ src: number } & PlayerDrop>;
  /**
   * txAdmin's events the bridge reads (TXADMIN_EVENTS), fired by its monitor resource: a client or another resource
   * firing one is not heard.
   */
  readonly txAdminEvents$: Observable<TxAdminEvent>;
  readonly clientReady$: Observable<ClientMessage>;
  readonly dutyRequests$: Observable<ClientMessage>;
  readonly refreshRequests$: Observable<ClientMessage>;
  /** /dutyrefresh <id>: a client asks to refresh another player (args: the target as typed). */
  readonly refreshOtherRequests$: Observable<ClientMessage>;
  /** A client's menu read a profile older than the refresh interval (stale-while-revalidate). */
  readonly revalidateRequests$: Observable<ClientMessage>;
  /** Answers to the token exposure check (see TokenExposureCheck). */
  readonly tokenProofs$: Observable<ClientMessage>;
  playerName(src: number): string;
  playerIdentifiers(src: number): string[];
  connectedPlayers(): number[];
  emitLocal(event: string, ...args: unknown[]): void;
  emitClient(event: string, src: number, ...args: unknown[]): void;
  print(line: string): void;
  /**
   * Registers a server command. `restricted`: only the console and principals with the ACE `command.<name>` may run
   * it. The handler gets who ran it (0 for the console) and the arguments.
   */
  registerCommand(name: string, handler: (src: number, args: string[]) => void, restricted: boolean): void;
  /** A line for whoever ran a command: the server console (0) or that player's chat. */
  reply(src: number, line: string): void;
  /** This resource's name (`bridge` unless the owner renamed the folder): its principal is `resource.<name>`. */
  readonly resourceName: string;
  /** This resource's folder on disk: where a file a convar names by a relative path is. */
  readonly resourcePath: string;
  /** A server console line run by this resource (FXServer checks its ACE `command.<name>`). */
  executeCommand(line: string): void;
  /** Whether a principal (`resource.bridge`, `group.admin`) has an ACE, through everything it inherits. */
  isPrincipalAceAllowed(principal: string, object: string): boolean;
  /** Whether a connected player has an ACE through any of their principals (identifiers, `player.<id>`). */
  isPlayerAceAllowed(src: number, object: string): boolean;
  /** A replicated `GlobalState` key (every client sees it). */
  setGlobalState(key: string, value: unknown): void;
  convar(name: string): string;
  /** The table config.lua exports, or undefined with `error` when it could not be read. */
  readConfig(): { value: unknown } | { error: string };
  readonly store: KeyValueStore;
  /** A server export of this resource (`exports.bridge:Name(...)` for other resources). */
  registerExport(name: string, fn: (...args: never[]) => unknown): void;
  /** A replicated value on the player's state bag (`Player(src).state[key]`). */
  setPlayerState(src: number, key: string, value: unknown): void;
  /**
   * Every set of these keys on any player's bag, the bridge's own included, delivered before the value is stored
   * (so a change made in reaction must wait for the next tick). Subscribing registers the handlers.
   */
  playerStateWrites(keys: readonly string[]): Observable<PlayerStateWrite>;
  /** Answers the resource's HTTP requests (FXServer's SetHttpHandler); one handler per resource, the last wins. */
  httpHandler(handler: (request: HttpRequest) => HttpAnswer): void;
  /** Other resources: their state, exports and local events, for the integrations. */
  readonly resources: ResourcePort;
}

/**
 * Time and randomness, injected so tests run in virtual time. Two clocks, because an admin or NTP moves the wall
 * clock while the server runs: every wait, window, backoff, cooldown and TTL is measured on `now`, which never
 * jumps; `wallNow` is read only for what means a moment in the world (a duty's `since`, records kept in KVP across
 * restarts) and to read the panel's `Date`-relative headers.
 */
export interface BridgeRuntime {
  /** Monotonic milliseconds (epoch-like at process start, then never moved by changes of the wall clock). */
  now(): number;
  /** The wall clock: epoch milliseconds, which may jump back or forward at any time. */
  wallNow(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  fetch?: typeof fetch;
  /**
   * FXServer's global `require`, which loads the optional modules beside dist/server.js when their feature is on
   * (server/kernel/optional-module.ts); without it, every optional feature stays off with an error saying so.
   */
  load?: LoadModule;
}
