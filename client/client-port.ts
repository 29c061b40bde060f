/** An argument of a command, as the chat suggestion shows it. */
export interface CommandParam {
  name: string;
  help: string;
}

/** Everything the client half needs from the game; the FiveM adapter is the only implementation touching globals. */
export interface ClientPort {
  /** Handlers for events the bridge's server half sends to this client. */
  onServer(event: string, handler: (...args: unknown[]) => void): void;
  emitServer(event: string, ...args: unknown[]): void;
  registerExport(name: string, fn: (...args: never[]) => unknown): void;
  /** A client command with its chat suggestion; the handler gets the arguments typed after it. */
  registerCommand(name: string, help: string, handler: (args: string[]) => void, params?: CommandParam[]): void;
  /** The resource's own config.lua table, read through the GetConfig export it registers; throws if it cannot. */
  readConfig(): unknown;
  /** State of another resource: `started`, `stopped`, `missing`, ... */
  resourceState(name: string): string;
  /** Calls another resource's client export; throws when it has none or the call fails. */
  callExport(resource: string, name: string, ...args: unknown[]): unknown;
  /** A convar as this client sees it: only replicated (`setr`) convars are visible, others read as "". */
  replicatedConvar(name: string): string;
  /** A notification in the game's feed, above the minimap. */
  showFeed(text: string): void;
  log(line: string): void;
  /** The client's monotonic clock in milliseconds (GetGameTimer): the wall clock and the server's clock may differ. */
  now(): number;
}
