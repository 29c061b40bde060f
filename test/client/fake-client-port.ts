import type { ClientPort } from '../../client/client-port.js';

/** A ClientPort that records what the client half does and lets a test play the server's part. */
export function createFakeClientPort() {
  const handlers = new Map<string, (...args: unknown[]) => void>();
  const exported = new Map<string, (...args: never[]) => unknown>();
  const commands = new Map<string, { help: string; handler: () => void }>();
  const sent: Array<{ event: string; args: unknown[] }> = [];
  const notifications: string[] = [];
  const logs: string[] = [];
  const port: ClientPort = {
    onServer: (event, handler) => {
      handlers.set(event, handler);
    },
    emitServer: (event, ...args) => {
      sent.push({ event, args });
    },
    registerExport: (name, fn) => {
      exported.set(name, fn);
    },
    registerCommand: (name, help, handler) => {
      commands.set(name, { help, handler });
    },
    notify: (text) => {
      notifications.push(text);
    },
    log: (line) => {
      logs.push(line);
    },
  };
  return {
    port,
    sent,
    notifications,
    logs,
    commands,
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
