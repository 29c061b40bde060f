// The connection to the community's Redis: the link ioredis keeps, the link that refuses when the settings do not read,
// and Redis's clock as the answers that come over it tell it.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { BehaviorSubject, distinctUntilChanged, filter, map, NEVER, type Observable, Subject, share } from 'rxjs';
import type { Logger } from '../kernel/index.js';
import { errorText, REDIS_URL_CONVAR } from '../kernel/index.js';
import { communityId, communityPrefix } from './communities.js';
import type { CommunityLink } from './community.js';
import type { RedisTarget } from './redis-settings.js';
import { mayBeTlsMismatch, redisFaultHint, tlsMismatchHint } from './redis-settings.js';

/** A slow Redis fails the call rather than hold a panel request: the caller goes on with this server's own budget. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 3_000;
const LONGEST_RECONNECT_DELAY_MS = 5_000;

export interface RedisLinkOptions {
  target: RedisTarget;
  /** BRIDGE_API_BASE as the bridge reads it: the community is every server naming it on this Redis. */
  panel: string;
  logger: Logger;
  /** The CA certificates (PEM) `rediss://` trusts instead of Node's own: a private CA, or a self-signed certificate. */
  ca?: Buffer;
  /** This server's monotonic clock, for since when Redis answers or not (`bridge status`); main.ts's by default. */
  now?: () => number;
}

// Redis's own error codes, which say it all: the rest of their text is about its protocol, not the owner's setting.
const REDIS_CODE = /^(NOAUTH|WRONGPASS)\b/;

/**
 * The one connection to the community's Redis, kept by ioredis (reconnecting forever, backing off to 5 s). Nothing
 * waits for it: the offline queue is off, so a command while Redis is gone fails at once, and every command has a
 * short timeout. Its going and coming back are told once each, naming BRIDGE_REDIS_URL.
 */
export function openRedisLink({
  target,
  panel,
  logger,
  ca,
  now = () => performance.timeOrigin + performance.now(),
}: RedisLinkOptions): CommunityLink & { close(): void } {
  const id = communityId(panel);
  const prefix = communityPrefix(panel);
  const client = new Redis(target.url, {
    // Set here rather than left to the scheme: ioredis turns TLS on only for a lower-case `rediss://`.
    ...(target.tls ? { tls: ca ? { ca } : {} } : {}),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 250, LONGEST_RECONNECT_DELAY_MS),
    connectionName: 'bridge',
    // An error answer belongs to its command (the caller goes on locally), never a reason to drop the connection.
    reconnectOnError: () => false,
  });
  const state = new BehaviorSubject<'connecting' | 'up' | 'down'>('connecting');
  const connected = new Subject<void>();
  let everUp = false;
  let closed = false;
  let lastError: unknown;
  let since: number | undefined;
  let reason: string | undefined;

  // Told once per outage, with what to set when the error says (a password, a certificate) or when a probe of the
  // port finds TLS on one side only; the state changes at once, the line follows the probe (a round trip).
  const goDown = (error: unknown) => {
    if (state.value === 'down') return;
    const text = error === undefined ? 'connection closed' : errorText(error);
    reason = REDIS_CODE.exec(text)?.[1] ?? text;
    since = now();
    state.next('down');
    const what = `Redis at ${target.where} (${REDIS_URL_CONVAR}) ${everUp ? 'is gone' : 'does not answer'} (${reason})`;
    const tell = (hint: string | undefined) => {
      if (closed) return;
      logger.warn(
        `${what}${hint ? `: ${hint}` : ''}; this server serves its own players on a conservative share of the panel's budget and tries again`,
      );
    };
    const known = redisFaultHint(error, target, ca !== undefined);
    if (known || !mayBeTlsMismatch(error, target)) tell(known);
    else void tlsMismatchHint(target).then(tell);
  };
  client.on('error', (error: unknown) => {
    lastError = error;
    goDown(error);
  });
  client.on('close', () => goDown(lastError));
  client.on('ready', () => {
    lastError = undefined;
    // The first answer names the community, also when Redis came only after the server started.
    logger.info(
      everUp
        ? `Redis at ${target.where} (${REDIS_URL_CONVAR}) answers again; community ${id} shares the panel's budget again`
        : `this server is one of a community on Redis at ${target.where} (${REDIS_URL_CONVAR}): community ${id} of the panel ${panel}, keys ${prefix}*`,
    );
    everUp = true;
    since = now();
    reason = undefined;
    state.next('up');
    connected.next();
  });

  const shas = new Map<string, string>();
  const shaOf = (lua: string) => {
    let sha = shas.get(lua);
    if (!sha) {
      sha = createHash('sha1').update(lua).digest('hex');
      shas.set(lua, sha);
    }
    return sha;
  };
  // Subscribing takes a connection of its own, opened with the first channel asked for. Its offline queue holds the
  // SUBSCRIBE until it connects, however many attempts fail first (a queued subscription waits for nobody; with the
  // main connection's zero retries ioredis would drop it at the first refused attempt, and never subscribe), and
  // ioredis subscribes again after every reconnection. Its failures are the main connection's to tell.
  let subscriber: Redis | undefined;
  const heard = new Subject<readonly [string, string]>();
  const channels = new Map<string, Observable<string>>();
  const messages$ = (channel: string): Observable<string> => {
    let messages = channels.get(channel);
    if (messages) return messages;
    if (!subscriber) {
      subscriber = client.duplicate({
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        commandTimeout: undefined,
        connectionName: 'bridge-sub',
      });
      subscriber.on('error', () => {});
      subscriber.on('message', (from: string, message: string) => heard.next([from, message]));
    }
    const listening = subscriber;
    messages = heard.pipe(
      filter(([from]) => from === channel),
      map(([, message]) => message),
      share(),
    );
    listening.subscribe(channel).catch(() => {
      // Closed before it connected: nothing to listen to any more.
    });
    channels.set(channel, messages);
    return messages;
  };

  const call = <T>(command: string, ...args: Array<string | number>): Promise<T> =>
    client.call(command, ...args) as Promise<T>;

  return {
    where: target.where,
    id,
    prefix,
    get isUp() {
      return state.value === 'up';
    },
    get since() {
      return since;
    },
    get reason() {
      return reason;
    },
    up$: state.pipe(
      filter((now) => now !== 'connecting'),
      map((now) => now === 'up'),
      distinctUntilChanged(),
    ),
    connected$: connected.asObservable(),
    call,
    async script<T>(lua: string, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<T> {
      const sha = shaOf(lua);
      try {
        return await call<T>('EVALSHA', sha, keys.length, ...keys, ...args);
      } catch (error) {
        // A Redis restarted empty (or flushed) has forgotten the script: send it once in full.
        if (!errorText(error).startsWith('NOSCRIPT')) throw error;
        return call<T>('EVAL', lua, keys.length, ...keys, ...args);
      }
    },
    messages$,
    close() {
      closed = true;
      state.complete();
      connected.complete();
      heard.complete();
      subscriber?.disconnect(false);
      client.disconnect(false);
    },
  };
}

/**
 * The link of a BRIDGE_REDIS_URL (or BRIDGE_REDIS_CA_FILE) that does not read: never up, every call refused, so the
 * server runs alone. `reason` says which, for `bridge status`.
 */
export function unreachableLink(panel: string, reason: string): CommunityLink & { close(): void } {
  const refuse = () => Promise.reject(new Error(reason));
  return {
    where: `(${reason})`,
    id: communityId(panel),
    prefix: communityPrefix(panel),
    isUp: false,
    since: undefined,
    reason,
    up$: new BehaviorSubject(false),
    connected$: NEVER,
    call: refuse,
    script: refuse,
    messages$: () => NEVER,
    close() {},
  };
}

/**
 * Redis's clock as this server reckons it: the community's one clock (design.md, "Liveness is on Redis's clock").
 * Every answer that carries Redis's TIME is a sample: Redis read it somewhere between the moment the call left and the
 * moment its answer came, on this server's monotonic clock, so the middle of that round trip maps to it with an error
 * of half the round trip. The sample with the shortest round trip among the recent ones wins: a call held up (a busy
 * Redis, a paused client, a slow frame here) says little. No wall clock is read.
 */
export interface RedisClock {
  /** A call that left at `sentAt` and was answered at `answeredAt` (ms, monotonic) read Redis's TIME as `redisUs`. */
  sample(sentAt: number, answeredAt: number, redisUs: number): void;
  /** A moment of this server's monotonic clock (ms) in µs of Redis's clock, and the error; undefined before a sample. */
  toRedisUs(at: number): { us: number; errorUs: number } | undefined;
}

/** Samples older than this give way to any newer one: both clocks drift, and Redis may have failed over. */
const SAMPLE_KEPT_MS = 60_000;

export function redisClock(now: () => number): RedisClock {
  let best: { offsetUs: number; errorUs: number; at: number } | undefined;
  return {
    sample(sentAt, answeredAt, redisUs) {
      const errorUs = Math.max(0, answeredAt - sentAt) * 500;
      const offsetUs = redisUs - ((sentAt + answeredAt) / 2) * 1000;
      const stale = best === undefined || now() - best.at > SAMPLE_KEPT_MS;
      if (stale || errorUs <= (best?.errorUs ?? 0)) best = { offsetUs, errorUs, at: answeredAt };
    },
    toRedisUs(at) {
      if (!best) return undefined;
      return { us: Math.round(at * 1000 + best.offsetUs), errorUs: Math.ceil(best.errorUs) };
    },
  };
}
