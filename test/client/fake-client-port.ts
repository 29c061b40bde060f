import type { ClientPort, CommandParam } from '../../client/client-port.js';

export interface FakeClientOptions {
  /** What config.lua's GetConfig export answers; a function that throws plays a missing export. */
  config?: unknown;
  /** States of other resources (`ox_lib: 'started'`); any other is `missing`. */
  resources?: Record<string, string>;
  /** Other resources' client exports. */
  exports?: Record<string, Record<string, (...args: unknown[]) => unknown>>;
  /** Convars replicated to this client (`setr`); any other reads as "". */
  replicatedConvars?: Record<string, string>;
}

/** A ClientPort that records what the client half does and lets a test play the server's part. */
export function createFakeClientPort(options: FakeClientOptions = {}) {
  const handlers = new Map<string, (...args: unknown[]) => void>();
  const exported = new Map<string, (...args: never[]) => unknown>();
  const commands = new Map<string, { help: string; handler: (args: string[]) => void; params: CommandParam[] }>();
  const sent: Array<{ event: string; args: unknown[] }> = [];
  const notifications: string[] = [];
  const logs: string[] = [];
  let gameTimer = 1_000;
  const port: ClientPort = {
    now: () => gameTimer,
    onServer: (event, handler) => {
      handlers.set(event, handler);
    },
    emitServer: (event, ...args) => {
      sent.push({ event, args });
    },
    registerExport: (name, fn) => {
      exported.set(name, fn);
    },
    registerCommand: (name, help, handler, params = []) => {
      commands.set(name, { help, handler, params });
    },
    readConfig: () => (typeof options.config === 'function' ? options.config() : options.config),
    resourceState: (name) => options.resources?.[name] ?? 'missing',
    callExport: (resource, name, ...args) => {
      const fn = options.exports?.[resource]?.[name];
      if (!fn) throw new Error(`No such export ${name} in resource ${resource}`);
      return fn(...args);
    },
    replicatedConvar: (name) => options.replicatedConvars?.[name] ?? '',
    showFeed: (text) => {
      notifications.push(text);
    },
    log: (line) => {
      logs.push(line);
    },
  };
  return {
    port,
    sent,
    /** What the feed showed. */
    notifications,
    logs,
    commands,
    /** The game timer moves on (GetGameTimer, the client's monotonic clock). */
    advance(ms: number) {
      gameTimer += ms;
    },
    fromServer(event: string, ...args: unknown[]) {
      const handler = handlers.get(event);
      if (!handler) throw new Error(`the client does not listen to ${event}`);
      handler(...args);
    },
    call<T>(name: string, ...args: unknown[]): T {
      const fn = exported.get(name) as ((...a: unknown[]) => T) | undefined;
      if (!fn) throw new Error(`no export ${name}`);
      return fn(...args);
    },
  };
}
