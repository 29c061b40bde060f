// What a test can observe without touching the runtimes: console lines, script errors and every dispatched event.
import { describe } from '../codec/msgpack.js';

export type Side = 'server' | 'client';

export interface ConsoleLine {
  readonly side: Side;
  /** The player whose client printed it; null on the server. */
  readonly player: number | null;
  /** The resource that printed it, or null for the simulator itself. */
  readonly resource: string | null;
  readonly level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  /** The text without FiveM colour codes (^0-^9). */
  readonly text: string;
  /** The line as a console would show it: `[server] [bridge] text`. */
  readonly line: string;
}

export type ScriptErrorKind =
  | 'event'
  | 'timer'
  | 'ticker'
  | 'call ref'
  | 'promise'
  | 'unhandled promise failure'
  | 'load'
  | 'parse'
  | 'lua'
  | 'manifest';

export interface ScriptError {
  readonly side: Side;
  readonly player: number | null;
  readonly resource: string | null;
  readonly kind: ScriptErrorKind;
  /** The printed text (first line is the message, the rest a stack trace when there is one). */
  readonly text: string;
}

export interface SimEvent {
  readonly seq: number;
  readonly time: number;
  /** Where the event was dispatched. */
  readonly side: Side;
  /** The player whose client dispatched it (client side), null on the server. */
  readonly player: number | null;
  /** `local` for emit/TriggerEvent on that side, `net` for events that crossed the network. */
  readonly kind: 'local' | 'net';
  readonly name: string;
  /** The raw source string FXServer passes to handlers: '' (local), 'net:3', 'net:65535', 'internal-net:3'. */
  readonly source: string;
  /** The resource that triggered it, or '__cfx_internal' for the server itself, or 'sim' for the test. */
  readonly sender: string | null;
  /** For server→client events: the target as given to emitNet (-1 for everyone). */
  readonly target: number | null;
  /** The payload decoded on demand (function references appear as '[funcref …]' strings). */
  readonly args: unknown[];
}

const colourCodes = /\^[0-9]/g;

export interface LogOptions {
  /**
   * Print console lines to the real stdout as they happen, or hand each to a function (the playground prints its
   * user's resources); default false: the simulator is quiet.
   */
  echo: boolean | ((line: ConsoleLine) => void);
  /** Record events; a predicate can keep only some (default: all). */
  recordEvents: boolean | ((name: string) => boolean);
  /** Oldest events are dropped beyond this many (default 100 000). */
  maxEvents: number;
}

export class SimLog {
  readonly console: ConsoleLine[] = [];
  readonly errors: ScriptError[] = [];
  readonly events: SimEvent[] = [];
  private seq = 0;

  constructor(
    private readonly options: LogOptions,
    private readonly now: () => number,
  ) {}

  print(side: Side, player: number | null, resource: string | null, level: ConsoleLine['level'], raw: string): void {
    const text = raw.replace(colourCodes, '').replace(/\n$/, '');
    const where = side === 'server' ? '[server]' : `[client ${player}]`;
    const line = resource ? `${where} [${resource}] ${text}` : `${where} ${text}`;
    const entry: ConsoleLine = { side, player, resource, level, text, line };
    this.console.push(entry);
    const { echo } = this.options;
    if (typeof echo === 'function') echo(entry);
    else if (echo) process.stdout.write(`${line}\n`);
  }

  error(side: Side, player: number | null, resource: string | null, kind: ScriptErrorKind, text: string): void {
    const clean = text.replace(colourCodes, '');
    this.errors.push({ side, player, resource, kind, text: clean });
    this.print(side, player, resource, 'error', clean);
  }

  wantsEvent(name: string): boolean {
    const record = this.options.recordEvents;
    return typeof record === 'function' ? record(name) : record;
  }

  event(fields: Omit<SimEvent, 'seq' | 'time' | 'args'>, payload: Uint8Array): void {
    if (!this.wantsEvent(fields.name)) return;
    let decoded: unknown[] | undefined;
    const entry = {
      ...fields,
      seq: ++this.seq,
      time: this.now(),
      get args(): unknown[] {
        if (!decoded) {
          const value = describe(payload);
          decoded = Array.isArray(value) ? value : [];
        }
        return decoded;
      },
    };
    this.events.push(entry);
    if (this.events.length > this.options.maxEvents) this.events.splice(0, this.events.length - this.options.maxEvents);
  }
}
