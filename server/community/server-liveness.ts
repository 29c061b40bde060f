import { randomBytes } from 'node:crypto';
import { filter, firstValueFrom, Subject } from 'rxjs';
import { ChatIdSchema } from '../../shared/contract/chat-id.js';
import * as z from '../../shared/zod-mini.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import type { CommunityLink, ReadShared } from './community.js';
import type { RedisClock } from './redis-link.js';
import { IDENTITY_KEY, serverIdentity } from './server-identity.js';
import { LIVENESS_OF_LUA, RENEW_LUA, TAKEN_OVER_LUA } from './server-liveness.lua.js';

/** Renewals per liveness: a server late by a renewal or two is not taken for gone. */
const RENEWALS_PER_LIVENESS = 6;
const LONGEST_RETRY_MS = 5_000;

export interface ServerLivenessOptions {
  link: CommunityLink;
  readShared: ReadShared;
  store: Pick<KeyValueStore, 'get' | 'set'>;
  logger: Logger;
  clock: RedisClock;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  run: { id: string; previous: string | undefined };
  livenessMs: number;
}

/** A server the renewal took out of the community, with the accounts it owned. */
export interface Lapsed {
  server: string;
  silentForMs: number;
  chatIds: string[];
  /** The accounts already handed on to be ended, when a takeover is listed again (a fault cut its first try short). */
  handed: Set<string>;
}

const TakeoverSchema = z.object({
  server: z.string().check(z.minLength(1), z.maxLength(64)),
  at: z.string().check(z.maxLength(20)),
  silentForMs: z.number(),
  chatIds: z.array(ChatIdSchema),
});

export interface ServerLiveness {
  /** This server's identity, once settled (no duty record is written before): waits through any outage. */
  identity(): Promise<string>;
  /** The identity now, if settled. */
  readonly settled: string | undefined;
  /**
   * The duty records this server found in KVP at start (its crash ledger, its kept calls) were another live server's:
   * its folder was copied from that server's, or the same server runs twice on one data.
   */
  readonly inherited: boolean;
  /** A renewal found this server had been taken for gone, or came after failed ones: what it holds is settled again. */
  readonly revived$: Subject<void>;
  /** Another live server renews this identity: this server took a fresh one (`former` was its identity). */
  readonly renamed$: Subject<{ former: string; current: string }>;
  /** A lapsed server to take over: listed by every renewal until `tookOver` says its duties were all handed on. */
  readonly lapsed$: Subject<Lapsed>;
  /** Every duty of this lapsed server was handed on (`complete`), or some could not be read and are tried again. */
  tookOver(gone: Lapsed, complete: boolean): void;
  stop(): void;
}

type RenewAnswer = ['conflict', string] | ['ok', string, number, ...string[]];

/**
 * This server's identity and liveness in the community (issue 30). The identity is kept in KVP, so a crash or a
 * restart keeps it; a copied folder would keep it too. So the first renewal of a run checks who renews it: nobody, or
 * a run that stopped renewing, and it is this server's; another run still renewing it is another live server, and
 * this one takes a fresh identity (one WARN) and leaves the duty records it found to that server. A server restarted
 * after a crash finds its own last run there, not yet expired, and a copy finds the same id (the copied KVP's last
 * run): it waits long enough for that run to renew, and only a run that does is another server.
 *
 * Then it renews every sixth of the liveness, on Redis's clock, and each renewal takes out the first other server
 * whose renewal is older than the liveness, with what it owned (one server does, atomically): lapsed$. Redis keeps the
 * takeover, and each renewal lists it, until this server says it is done: a renewal that timed out and still ran
 * loses nothing.
 */
export function startServerLiveness(options: ServerLivenessOptions): ServerLiveness {
  const { link, store, logger, clock, now, sleep, run, livenessMs } = options;
  const renewEveryMs = Math.max(250, Math.floor(livenessMs / RENEWALS_PER_LIVENESS));
  const keys = ['servers', 'server-runs', 'owned', 'takeovers'].map((name) => `${link.prefix}${name}`);
  const takeoversKey = keys[3] as string;
  let identity = serverIdentity(store, logger);
  let settled: string | undefined;
  let inherited = false;
  let stopped = false;
  const waiting: Array<(id: string) => void> = [];
  const revived$ = new Subject<void>();
  const renamed$ = new Subject<{ former: string; current: string }>();
  const lapsed$ = new Subject<Lapsed>();
  /** Each takeover listed to this server (by lapsed server and its last renewal): being taken over, or done. */
  const takeovers = new Map<string, { gone: Lapsed; by: string; at: string; done: boolean; running: boolean }>();

  /** A script whose answer starts with Redis's TIME: a sample of its clock. */
  const timed = async <T>(lua: string, args: Array<string | number>, timeAt: (answer: T) => number): Promise<T> => {
    const sentAt = now();
    const answer = await link.script<T>(lua, keys, args);
    const us = timeAt(answer);
    if (Number.isFinite(us)) clock.sample(sentAt, now(), us);
    return answer;
  };

  const untilUp = () => firstValueFrom(link.up$.pipe(filter((up) => up)), { defaultValue: false });
  let failures = 0;
  const retry = async () => {
    failures += 1;
    if (!link.isUp) await untilUp();
    else await sleep(Math.min(LONGEST_RETRY_MS, 250 * 2 ** Math.min(failures, 5)));
  };

  const takeFreshIdentity = (why: string): string => {
    const former = identity;
    identity = randomBytes(8).toString('hex');
    store.set(IDENTITY_KEY, identity);
    logger.warn(`${why}; this server is ${identity} in the community from now on (was ${former})`);
    return former;
  };

  const renew = (allow: { run: string; score: string } = { run: '', score: '' }, sweep = false) =>
    timed<RenewAnswer>(
      RENEW_LUA,
      [identity, run.id, livenessMs, allow.run, allow.score, sweep ? '1' : '0'],
      (answer) => (answer[0] === 'ok' ? Number(answer[1]) : Number.NaN),
    );

  /** The first renewal of this run: whose this identity is. */
  const settle = async (): Promise<void> => {
    while (!stopped && settled === undefined) {
      if (!link.isUp) await untilUp();
      try {
        const [holder, score, at] = await timed<[string | null, string | null, number]>(
          LIVENESS_OF_LUA,
          [identity],
          (answer) => answer[2] * 1000,
        );
        let allow = { run: '', score: '' };
        const live = holder !== null && holder !== run.id && score !== null && at - Number(score) <= livenessMs;
        if (live && holder === run.previous) {
          // This server's last run (a crash, a resource restart), or the server this folder was copied from: only a
          // run that is still alive renews it meanwhile. Any other live run is another server (renew says so).
          await sleep(Math.max(0, Number(score) + 2 * renewEveryMs + 250 - at));
          allow = { run: holder, score };
        }
        const answer = await renew(allow);
        if (answer[0] === 'conflict') {
          inherited = true;
          takeFreshIdentity(
            `another live server of the community has this server's identity ${identity} (its run ${answer[1]}): this server's folder was most likely copied from that server's, saved data (KVP) included, or the same server runs twice on one data; the duty records this server found in its KVP are that server's and are left to it`,
          );
          continue;
        }
        failures = 0;
        settled = identity;
        logger.info(`this server is ${identity} in the community`);
        for (const resolve of waiting.splice(0)) resolve(identity);
      } catch (error) {
        logger.debug(`the community's liveness did not answer (${errorText(error)})`);
        await retry();
      }
    }
  };

  const renewals = async () => {
    await settle();
    let gap = false;
    while (!stopped) {
      await sleep(renewEveryMs);
      if (stopped) return;
      try {
        const answer = await renew(undefined, true);
        if (answer[0] === 'conflict') {
          const former = takeFreshIdentity(
            `another server of the community renews this server's identity (its run ${answer[1]}), most likely one started from a copy of this server's folder while this one could not reach Redis`,
          );
          settled = identity;
          renamed$.next({ former, current: identity });
          continue;
        }
        const [, , revived, ...listed] = answer;
        if (revived === 1 || gap) revived$.next();
        gap = false;
        failures = 0;
        followTakeovers(listed);
      } catch (error) {
        gap = true;
        logger.debug(`this server's liveness could not be renewed (${errorText(error)})`);
      }
    }
  };
  void renewals();

  const acknowledge = (takeover: { by: string; gone: Lapsed; at: string }) =>
    link.script(TAKEN_OVER_LUA, [takeoversKey], [takeover.by, takeover.gone.server, takeover.at]).catch(() => {
      // Listed again by the next renewal, and acknowledged again then.
    });
  /** The takeovers the renewal listed: a new one is taken over; one done here whose acknowledgement was lost, again. */
  const followTakeovers = (listed: readonly string[]) => {
    const now = new Set<string>();
    for (const raw of listed) {
      const read = options.readShared(TakeoverSchema, raw, 'takeovers');
      if (!read) continue;
      const key = `${read.server}@${read.at}`;
      now.add(key);
      const known = takeovers.get(key);
      if (known?.done) void acknowledge(known);
      if (known) {
        if (known.done || known.running) continue;
        known.running = true;
        lapsed$.next(known.gone);
        continue;
      }
      const gone: Lapsed = {
        server: read.server,
        silentForMs: read.silentForMs,
        chatIds: read.chatIds,
        handed: new Set(),
      };
      takeovers.set(key, { gone, by: identity, at: read.at, done: false, running: true });
      lapsed$.next(gone);
    }
    for (const key of takeovers.keys()) if (!now.has(key)) takeovers.delete(key);
  };

  return {
    identity: () =>
      settled !== undefined ? Promise.resolve(settled) : new Promise((resolve) => waiting.push(resolve)),
    get settled() {
      return settled;
    },
    get inherited() {
      return inherited;
    },
    revived$,
    renamed$,
    lapsed$,
    tookOver(gone, complete) {
      const takeover = [...takeovers.values()].find((each) => each.gone === gone);
      if (!takeover) return;
      takeover.running = false;
      if (!complete) return;
      takeover.done = true;
      void acknowledge(takeover);
    },
    stop() {
      stopped = true;
      revived$.complete();
      renamed$.complete();
      lapsed$.complete();
    },
  };
}
