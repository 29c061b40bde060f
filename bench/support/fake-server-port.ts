import { filter, type Observable, Subject } from 'rxjs';
import type { ResourcePort } from '../../server/integrations/integration.js';
import type {
  ClientMessage,
  HttpAnswer,
  HttpRequest,
  PlayerStateWrite,
  ServerPort,
  TxAdminEvent,
} from '../../server/kernel/server-port.js';
import { createMemoryStore, type KeyValueStore } from '../../server/kernel/storage.js';
import { AceStore } from '../../sim/server/aces.js';
import { tokenize } from '../../sim/server/console-line.js';

export interface FakePlayer {
  name: string;
  identifiers: string[];
}

export interface LocalEvent {
  event: string;
  args: unknown[];
}

export interface ClientEvent {
  event: string;
  src: number;
  args: unknown[];
}

export interface FakeServerPortOptions {
  convars?: Record<string, string>;
  /** The table config.lua would export; `{ error }` when reading it fails. */
  config?: { value: unknown } | { error: string };
  store?: KeyValueStore;
  /** Players already connected when the bridge starts (a resource restart). */
  connected?: Record<number, FakePlayer>;
  /** server.cfg lines: `add_ace <principal> <object> allow|deny` and `add_principal <child> <parent>`. */
  aces?: readonly string[];
}

/**
 * FXServer as the bridge sees it, with every effect recorded: the streams are Subjects the test pushes into, and
 * emitted events and printed lines land in arrays the test reads back.
 */
export class FakeServerPort implements ServerPort {
  readonly joins$ = new Subject<number>();
  readonly drops$ = new Subject<{ src: number; reason: string; resource: string; code: number | undefined }>();
  readonly txAdminEvents$ = new Subject<TxAdminEvent>();
  readonly clientReady$ = new Subject<ClientMessage>();
  readonly dutyRequests$ = new Subject<ClientMessage>();
  readonly refreshRequests$ = new Subject<ClientMessage>();
  readonly revalidateRequests$ = new Subject<ClientMessage>();
  readonly tokenProofs$ = new Subject<ClientMessage>();
  readonly refreshOtherRequests$ = new Subject<ClientMessage>();
  readonly resourceName = 'bridge';
  readonly resourcePath = process.cwd();
  /** FXServer's ACEs and principals, with its semantics (the simulator's store). */
  readonly aces = new AceStore();
  /** Console lines the bridge ran with ExecuteCommand, refused ones included. */
  readonly executed: string[] = [];
  /** GlobalState as the bridge set it (copies, as msgpack makes them). */
  readonly globalState = new Map<string, unknown>();

  readonly localEvents: LocalEvent[] = [];
  readonly clientEvents: ClientEvent[] = [];
  readonly lines: string[] = [];
  /** Commands the bridge registered, by name. */
  readonly commands = new Map<string, { handler: (src: number, args: string[]) => void; restricted: boolean }>();
  /** Lines the bridge answered a command with, with who ran it. */
  readonly replies: Array<{ src: number; line: string }> = [];
  readonly convars: Map<string, string>;
  readonly players = new Map<number, FakePlayer>();
  readonly store: KeyValueStore;
  /** Server exports the bridge registered, by name. */
  readonly exported = new Map<string, (...args: never[]) => unknown>();
  /** The resource's HTTP handler, once the bridge registered one (see http()). */
  httpHandlerOf: ((request: HttpRequest) => HttpAnswer) | undefined;
  /** Player state bags as the bridge (or a client, see writePlayerState) set them: `playerState.get(src)?.get(key)`. */
  readonly playerState = new Map<number, Map<string, unknown>>();
  /** Every set on a player bag, as FXServer's change handlers see it: before the value is stored. */
  private readonly stateWrites$ = new Subject<PlayerStateWrite>();
  /** Other resources: none is running unless a test says so. */
  readonly resources: ResourcePort = {
    resourceState: () => 'missing',
    hasExport: () => false,
    callExport: (resource, name) => {
      throw new Error(`No such export ${name} in resource ${resource}`);
    },
    emitLocal: (event, ...args) => this.emitLocal(event, ...args),
    emitClient: (event, src, ...args) => this.emitClient(event, src, ...args),
    globalState: () => undefined,
    onLocal: () => {},
  };
  private readonly config: { value: unknown } | { error: string };

  constructor(options: FakeServerPortOptions = {}) {
    this.convars = new Map(Object.entries(options.convars ?? {}));
    this.config = options.config ?? { value: {} };
    this.store = options.store ?? createMemoryStore();
    for (const [src, player] of Object.entries(options.connected ?? {})) this.players.set(Number(src), player);
    for (const line of options.aces ?? []) this.cfg(line);
  }

  /** A server.cfg line about permissions, run as the console. */
  cfg(line: string): void {
    const [command, a = '', b = '', c = ''] = tokenize(line);
    if (command === 'add_ace') this.aces.addAce(a, b, c);
    else if (command === 'remove_ace') this.aces.removeAce(a, b, c);
    else if (command === 'add_principal') this.aces.addPrincipal(a, b);
    else if (command === 'remove_principal') this.aces.removePrincipal(a, b);
    else throw new Error(`the fake server.cfg has no command ${command}`);
  }

  /** ExecuteCommand: run as `resource.bridge`, which needs `command.<name>` as in FXServer. */
  executeCommand(line: string): void {
    this.executed.push(line);
    const [command = ''] = tokenize(line);
    if (!this.aces.isAllowed(`resource.${this.resourceName}`, `command.${command}`)) {
      this.lines.push(`Access denied for command ${command}.`);
      return;
    }
    if (command !== 'add_principal' && command !== 'remove_principal') {
      throw new Error(`the fake console has no command ${command}`);
    }
    this.cfg(line);
  }

  isPrincipalAceAllowed(principal: string, object: string): boolean {
    return this.aces.isAllowed(principal, object);
  }

  isPlayerAceAllowed(src: number, object: string): boolean {
    return this.aces.isAnyAllowed(this.ownPrincipals(src), object);
  }

  /** The principals a player is in, through their identifiers (what `sim.principalsOf` answers). */
  principalsOf(src: number): string[] {
    const own = this.ownPrincipals(src);
    return own.length > 0 ? this.aces.parentsOf(own) : [];
  }

  /** A connected player's own principals, as FXServer makes them: `player.<id>` and `identifier.<each>`. */
  private ownPrincipals(src: number): string[] {
    const player = this.players.get(src);
    return player ? [`player.${src}`, ...player.identifiers.map((id) => `identifier.${id}`)] : [];
  }

  setGlobalState(key: string, value: unknown): void {
    this.globalState.set(key, structuredClone(value));
  }

  playerName(src: number): string {
    return this.players.get(src)?.name ?? `player ${src}`;
  }

  playerIdentifiers(src: number): string[] {
    return [...(this.players.get(src)?.identifiers ?? [])];
  }

  connectedPlayers(): number[] {
    return [...this.players.keys()];
  }

  emitLocal(event: string, ...args: unknown[]): void {
    this.localEvents.push({ event, args });
  }

  emitClient(event: string, src: number, ...args: unknown[]): void {
    this.clientEvents.push({ event, src, args });
  }

  print(line: string): void {
    this.lines.push(line);
  }

  registerCommand(name: string, handler: (src: number, args: string[]) => void, restricted: boolean): void {
    this.commands.set(name, { handler, restricted });
  }

  registerExport(name: string, fn: (...args: never[]) => unknown): void {
    this.exported.set(name, fn);
  }

  httpHandler(handler: (request: HttpRequest) => HttpAnswer): void {
    this.httpHandlerOf = handler;
  }

  /** A request to the resource's HTTP endpoint; undefined while no handler is registered (FXServer's 404). */
  http(request: HttpRequest): HttpAnswer | undefined {
    return this.httpHandlerOf?.(request);
  }

  setPlayerState(src: number, key: string, value: unknown): void {
    this.storePlayerState(src, key, value);
  }

  playerStateWrites(keys: readonly string[]): Observable<PlayerStateWrite> {
    return this.stateWrites$.pipe(filter((write) => keys.includes(write.key)));
  }

  /** As FXServer applies a set: change handlers first, then the store (nil deletes). */
  private storePlayerState(src: number, key: string, value: unknown): void {
    this.stateWrites$.next({ src, key, value: value ?? null });
    const bag = this.playerState.get(src) ?? new Map<string, unknown>();
    if (value === null || value === undefined) bag.delete(key);
    else bag.set(key, value);
    this.playerState.set(src, bag);
  }

  reply(src: number, line: string): void {
    this.replies.push({ src, line });
  }

  convar(name: string): string {
    return this.convars.get(name) ?? '';
  }

  readConfig(): { value: unknown } | { error: string } {
    return this.config;
  }

  // What the FiveM adapter would push into the streams.

  join(src: number, player: FakePlayer): void {
    this.players.set(src, player);
    this.joins$.next(src);
  }

  clientReady(src: number): void {
    this.clientReady$.next({ src, args: [] });
  }

  requestDuty(src: number, ...args: unknown[]): void {
    this.dutyRequests$.next({ src, args });
  }

  requestRefresh(src: number): void {
    this.refreshRequests$.next({ src, args: [] });
  }

  /** `/dutyrefresh <id>` typed on the client, or anything a client sends on that event. */
  requestRefreshOther(src: number, ...args: unknown[]): void {
    this.refreshOtherRequests$.next({ src, args });
  }

  /** What GetDutyOptions() sends when the client's profile is older than the refresh interval. */
  requestRevalidate(src: number): void {
    this.revalidateRequests$.next({ src, args: [] });
  }

  /** Runs a registered command as the console (src 0) or a player would, and returns the lines it answered. */
  runCommand(line: string, src = 0): string[] {
    const [name = '', ...args] = line.trim().split(/\s+/);
    const command = this.commands.get(name);
    if (!command) throw new Error(`no command ${name} is registered`);
    if (command.restricted && src > 0 && !this.isPlayerAceAllowed(src, `command.${name}`)) {
      this.lines.push(`Access denied for command ${name}.`);
      return [];
    }
    const mark = this.replies.length;
    command.handler(src, args);
    return this.replies.slice(mark).map((reply) => reply.line);
  }

  /** A client's replicated write on its own bag (FiveM without sv_stateBagStrictMode), stored as FXServer does. */
  writePlayerState(src: number, key: string, value: unknown): void {
    this.storePlayerState(src, key, value);
  }

  /** The player leaves: by default the client's own `Exiting`, as FXServer reports it. */
  drop(src: number, reason = 'Exiting', resource = '__cfx_internal:client', code: number | undefined = 2): void {
    this.players.delete(src);
    this.drops$.next({ src, reason, resource, code });
  }

  // Reading back what the bridge did.

  /** Arguments of every `event` sent to `src`, oldest first. */
  sentTo(src: number, event: string): unknown[][] {
    return this.clientEvents.filter((entry) => entry.src === src && entry.event === event).map((entry) => entry.args);
  }

  /** Arguments of every local `event`, oldest first. */
  emitted(event: string): unknown[][] {
    return this.localEvents.filter((entry) => entry.event === event).map((entry) => entry.args);
  }

  /** Printed lines that contain `text`. */
  linesWith(text: string): string[] {
    return this.lines.filter((line) => line.includes(text));
  }
}
