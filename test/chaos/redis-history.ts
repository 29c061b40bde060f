// The chaos test's record of what Redis did to the duty owners, taken from Redis itself: a MONITOR connection of the
// harness's own sees every command in the order Redis ran it, the writes a script makes included ("lua" lines follow
// the EVAL or EVALSHA that ran them). Each write is put down with Redis's own time and the server whose connection
// sent it, known by the port of that server's proxy (TcpProxy.localPorts). Nothing here asks the bridges anything.
import { Redis } from 'ioredis';

/** One write of a duty-owner record, in the order Redis ran them. */
export interface OwnerWrite {
  /** Redis's clock when the command ran (µs since the epoch). */
  atUs: number;
  chatId: string;
  /** The record after the write (its JSON text), null when the key went (DEL, a rename that set it aside). */
  value: string | null;
  /** The record before it, as far as this history knows it; undefined when it cannot (Redis lost or restored it). */
  before: string | null | undefined;
  /** The server (its index in the chaos world) whose connection ran it; undefined for anyone else (the harness). */
  server: number | undefined;
}

/** An `on` a server announced before sending it (`duty-on:<chatId>`), as Redis ran the write. */
export interface Announcement {
  atUs: number;
  chatId: string;
  server: number | undefined;
}

export interface RedisHistory {
  readonly writes: readonly OwnerWrite[];
  readonly announcements: readonly Announcement[];
  /** Every command Redis ran, counted: the harness's way to see Redis go quiet. */
  readonly commands: number;
  /** When the last owner record was written (µs, Redis's clock); 0 when none was. */
  readonly lastWriteUs: number;
  /**
   * Follows the Redis on `port` from now on (a new one after a restart or a failover). Unless it is `empty`, what it
   * holds is not known to this history (an older snapshot, a lagging replica): the next write of each key has no
   * `before`.
   */
  follow(port: number, options?: { empty?: boolean }): Promise<void>;
  close(): void;
}

const OWNER_KEY = /duty-owner:(\d+)$/;
const ANNOUNCED_KEY = /duty-on:(\d+)$/;

/**
 * Starts the history on the Redis at `port`. `serverOf` names the server behind a client port (undefined: not one of
 * the servers). Call it before any server can reach that Redis, or its first writes are not seen.
 */
export async function startRedisHistory(
  port: number,
  serverOf: (clientPort: number) => number | undefined,
  password?: string,
): Promise<RedisHistory> {
  const writes: OwnerWrite[] = [];
  const announcements: Announcement[] = [];
  /** The record of each key as this history knows it; absent: `unwritten`. */
  const known = new Map<string, string | null>();
  /** What a key this history saw no write of holds: nothing (an empty Redis), or unknown. */
  let unwritten: null | undefined = null;
  let monitor: Redis | undefined;
  let commands = 0;
  let lastWriteUs = 0;
  /** The client that sent the command a "lua" line belongs to. */
  let caller: number | undefined;

  const write = (atUs: number, key: string, value: string | null) => {
    const chatId = OWNER_KEY.exec(key)?.[1];
    if (chatId === undefined) return;
    writes.push({ atUs, chatId, value, before: known.has(chatId) ? known.get(chatId) : unwritten, server: caller });
    known.set(chatId, value);
    lastWriteUs = atUs;
  };

  const onCommand = (time: string, args: string[], source: string) => {
    commands += 1;
    const atUs = Math.round(Number(time) * 1e6);
    if (source !== 'lua') caller = serverOf(Number(source.split(':').at(-1)));
    const [name = '', key = '', ...rest] = args;
    switch (name.toUpperCase()) {
      case 'SET': {
        const announced = ANNOUNCED_KEY.exec(key)?.[1];
        if (announced !== undefined) announcements.push({ atUs, chatId: announced, server: caller });
        write(atUs, key, rest[0] ?? null);
        break;
      }
      case 'DEL':
      case 'UNLINK':
        for (const each of [key, ...rest]) write(atUs, each, null);
        break;
      case 'RENAME':
      case 'RENAMENX':
        // The bridge renames a key only to set it aside (`<key>:set-aside`): never onto an owner record.
        write(atUs, key, null);
        break;
      case 'FLUSHALL':
      case 'FLUSHDB':
        known.clear();
        unwritten = null;
        break;
    }
  };

  const history: RedisHistory = {
    get writes() {
      return writes;
    },
    get announcements() {
      return announcements;
    },
    get commands() {
      return commands;
    },
    get lastWriteUs() {
      return lastWriteUs;
    },
    async follow(next, { empty = false } = {}) {
      monitor?.disconnect();
      known.clear();
      unwritten = empty ? null : undefined;
      // No reconnection of its own: a Redis that comes back is followed again, knowing what it came back with.
      const connection = new Redis({
        port: next,
        host: '127.0.0.1',
        password,
        lazyConnect: true,
        retryStrategy: () => null,
      });
      connection.on('error', () => {});
      monitor = await connection.monitor();
      // The connection that runs MONITOR is another client object; its own commands never show in its feed.
      monitor.on('monitor', onCommand);
      monitor.on('error', () => {});
      connection.disconnect();
    },
    close() {
      monitor?.disconnect();
      monitor = undefined;
    },
  };
  await history.follow(port, { empty: true });
  return history;
}
