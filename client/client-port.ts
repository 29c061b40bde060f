/** Everything the client half needs from the game; the FiveM adapter is the only implementation touching globals. */
export interface ClientPort {
  /** Handlers for events the bridge's server half sends to this client. */
  onServer(event: string, handler: (...args: unknown[]) => void): void;
  emitServer(event: string, ...args: unknown[]): void;
  registerExport(name: string, fn: (...args: never[]) => unknown): void;
  registerCommand(name: string, help: string, handler: () => void): void;
  notify(text: string): void;
  log(line: string): void;
}
