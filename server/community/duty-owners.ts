import { filter, firstValueFrom, map, merge, Subject } from 'rxjs';
import { ChatIdSchema } from '../../shared/contract/chat-id.js';
import * as z from '../../shared/zod-mini.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import type {
  CommunityLink,
  DutyOwners,
  FenceAnswer,
  FenceRequest,
  HeldElsewhere,
  LapsedServer,
  ReadShared,
  TakenElsewhere,
} from './community.js';
import { CLAIM_LUA, CONFIRM_LUA, ENDED_LUA, HOLD_LUA, INTENT_LUA, TAKE_HELD_LUA } from './duty-owner.lua.js';
import { OutboxFenceGate } from './outbox-fence-gate.js';
import { setAsideWrongType } from './read-shared.js';
import { REDIS_COMMAND_TIMEOUT_MS, redisClock } from './redis-link.js';
import { type Lapsed, startServerLiveness } from './server-liveness.js';

/**
 * After Redis answers again (a Redis restarted empty holds no owner at all), how long the other servers have to
 * write again what they hold before "nobody owns it" is believed: more than ioredis's longest reconnect delay (5 s).
 */
export const OWNERS_REWRITTEN_WITHIN_MS = 8_000;
/** Two `on`s of one account this close (µs, on Redis's clock, errors included) may have reached the panel either way. */
const OVERLAP_US = 250_000;
const LONGEST_RETRY_MS = 5_000;
/** When an `on` left is kept for its claim; one the panel never took is forgotten after this, past this many kept. */
const SENT_KEPT_MS = 120_000;
const SENT_KEPT_AT_MOST = 256;
/** A restate goes a little after the other server's last call could reach the panel. */
const RESTATE_MARGIN_MS = 250;
/** How often a take of a held shift is tried before the joining session goes without it. */
const TAKE_HELD_ATTEMPTS = 5;
/** The longest an `on` waits for this server's identity to be announced: one Redis command's timeout. */
const INTENT_WAIT_MS = REDIS_COMMAND_TIMEOUT_MS;

const Name = z.string().check(z.minLength(1), z.maxLength(64));
const OwnerSchema = z.object({
  server: Name,
  shift: z.string().check(z.maxLength(64)),
  state: z.optional(z.enum(['live', 'ending', 'ended'])),
  ended: z.optional(z.boolean()),
  dept: z.optional(z.number()),
  /** Until when its shift is held (ms on Redis's clock, as text), after its game crashed. */
  held: z.optional(z.string()),
});
/** An `on` announced before it left (INTENT_LUA). */
const IntentSchema = z.object({ server: Name, dept: z.number() });
const AnnouncementSchema = z.union([
  z.object({ kind: z.literal('claim'), chatId: ChatIdSchema, server: Name, shift: Name }),
  z.object({
    kind: z.literal('restate'),
    chatId: ChatIdSchema,
    server: Name,
    shift: Name,
    waitMs: z.number().check(z.gte(0)),
  }),
]);

export interface DutyOwnersOptions {
  link: CommunityLink;
  readShared: ReadShared;
  store: Pick<KeyValueStore, 'get' | 'set'>;
  logger: Logger;
  /** Monotonic clock (ms). */
  now: () => number;
  /** Waits on this server's timers. */
  sleep: (ms: number) => Promise<void>;
  /** This run of this server, and the one before it (startCommunityRun). */
  run: { id: string; previous: string | undefined };
  /** How long a server may go without renewing its liveness before a peer ends its shifts (ms). */
  livenessMs: number;
}

/** A claim of this run: a duty of this server, from the moment the panel took its `on`. */
interface Claim {
  chatId: string;
  shift: string;
  departmentId: number;
  /** When the panel took the `on` (monotonic ms); its fence is this moment on Redis's clock. */
  acceptedAt: number;
  /** When the `on` first left for the panel (monotonic ms), if this server sent one. */
  sentAt: number | undefined;
  /** µs on Redis's clock, fixed at the first attempt so every retry and every fenced call names the same claim. */
  fenceUs: number | undefined;
  written: boolean;
  /** An attempt failed before one was answered: whatever it replaces learns it after the fault. */
  late: boolean;
  /** The identity it was written under before this server had to take a fresh one. */
  former: string | undefined;
  restatesSeen: number;
  /** The restate this claim waits to send: a second ask before it leaves moves it later instead of adding one. */
  restateDue: { at: number } | undefined;
  running: boolean;
  /** Asked to settle again while an attempt ran. */
  again: boolean;
}

type ClaimAnswer =
  | ['won', string, number, number]
  | ['mine', string, number, number]
  | ['lost', string, string, 'live' | 'ending' | 'ended', 0 | 1, 0 | 1];
type ConfirmAnswer = ['go'] | ['stale', string, string] | ['ended'] | ['none'];
type TakeHeldAnswer = ['took', string, string, number, number, string, number] | ['no'];

const keyOfClaim = (chatId: string, shift: string) => `${chatId}\n${shift}`;

/**
 * The community's duty owners in Redis (see DutyOwners; docs/several-servers.md, "How an account's duty is fenced").
 * A duty of this server claims its account with the moment of its `on` as the fence; the claim is retried until Redis
 * answers whether it holds. Every fenced call is confirmed right before each attempt. Another server's claim of an
 * account this server holds is heard on the `duty-owner` channel (pub/sub, in the same script as the write) and read
 * back by claiming again; what was missed while Redis was away is found the same way when it answers again.
 */
export function startDutyOwners(options: DutyOwnersOptions): DutyOwners {
  const { link, readShared, logger, now, sleep, livenessMs } = options;
  const clock = redisClock(now);
  const liveness = startServerLiveness({ ...options, clock });
  const channel = `${link.prefix}duty-owner`;
  const keysOf = (chatId: string) => [`${link.prefix}duty-owner:${chatId}`, `${link.prefix}owned`];
  const serversKey = `${link.prefix}servers`;
  const intentKeyOf = (chatId: string) => `${link.prefix}duty-on:${chatId}`;
  /** An `on` announced before it left outlives the longest a peer takes to notice its server died. */
  const intentTtlMs = 3 * livenessMs + 60_000;
  /** The claim of this server's current duty of each account. */
  const held = new Map<string, Claim>();
  /** Every claim of this run whose calls may still be sent (by chat id and shift). */
  const known = new Map<string, Claim>();
  const onSentAt = new Map<string, number>();
  const taken = new Subject<TakenElsewhere>();
  const restates = new Subject<{ chatId: string; shift: string }>();
  let connectedAt = Number.NEGATIVE_INFINITY;
  let stopped = false;
  /** When each restate this server waits to send is due (monotonic ms). */
  const restatesDue = new Set<{ at: number }>();
  /** When every claim is checked again after a reconnection, while that is still to come. */
  let checkAgainAt: number | undefined;
  let takeovers = 0;

  /** A key holding another type than the string the bridge writes (another program's) is set aside: no owner there. */
  const script = async <T>(lua: string, chatId: string, args: Array<string | number>, extra: string[] = []) => {
    try {
      return await link.script<T>(lua, [...keysOf(chatId), ...extra], args);
    } catch (error) {
      const [record, owned] = keysOf(chatId) as [string, string];
      setAsideWrongType(link, error, { [record]: 'string', [owned]: 'zset', [serversKey]: 'zset' }, logger);
      throw error;
    }
  };

  const retryWait = async (attempt: number) => {
    if (!link.isUp) await untilAnswers();
    else await sleep(Math.min(LONGEST_RETRY_MS, 125 * 2 ** Math.min(attempt, 6)));
  };
  const answers = new Subject<void>();
  const untilAnswers = () =>
    new Promise<void>((resolve) => {
      const subscription = answers.subscribe(() => {
        subscription.unsubscribe();
        resolve();
      });
    });

  const usOf = (at: number | undefined) => (at === undefined ? undefined : clock.toRedisUs(at));

  // Several servers may ask for one restate (the claim it replaced, and that claim's server reading it back): one `on`
  // sent after the last of their calls answers them all.
  const scheduleRestate = (claim: Claim, waitMs: number) => {
    const at = now() + waitMs + RESTATE_MARGIN_MS;
    if (claim.restateDue) {
      claim.restateDue.at = Math.max(claim.restateDue.at, at);
      return;
    }
    const due = { at };
    claim.restateDue = due;
    restatesDue.add(due);
    void (async () => {
      for (let left = due.at - now(); left > 0; left = due.at - now()) await sleep(left);
      restatesDue.delete(due);
      claim.restateDue = undefined;
      if (!stopped && held.get(claim.chatId) === claim) restates.next({ chatId: claim.chatId, shift: claim.shift });
    })();
  };

  /**
   * This server's claim lost. It was `replaced` when both were written as their `on`s happened, as one server replaces
   * a session; `superseded` when either could not be (Redis down, slow or cut off), so the community settled it after
   * the fault.
   */
  const lose = (claim: Claim, afterFault: boolean, state: string, close = true) => {
    if (held.get(claim.chatId) === claim) held.delete(claim.chatId);
    known.delete(keyOfClaim(claim.chatId, claim.shift));
    const reason = afterFault || !claim.written ? 'superseded' : 'replaced';
    taken.next({ chatId: claim.chatId, shift: claim.shift, reason, panelOff: close && state !== 'live' });
  };

  /** Writes the claim, or learns it lost; retried (never blocking) until Redis answers. */
  const settle = async (claim: Claim): Promise<void> => {
    if (claim.running) {
      claim.again = true;
      return;
    }
    claim.running = true;
    try {
      for (let attempt = 1; !stopped && held.get(claim.chatId) === claim; attempt++) {
        try {
          const identity = await liveness.identity();
          if (claim.fenceUs === undefined) claim.fenceUs = usOf(claim.acceptedAt)?.us;
          const sent = usOf(claim.sentAt);
          const sentUs = sent === undefined ? '' : Math.max(0, sent.us - 2 * sent.errorUs);
          const answer = await script<ClaimAnswer>(CLAIM_LUA, claim.chatId, [
            ...[identity, options.run.id, claim.shift, claim.fenceUs ?? '', sentUs, claim.departmentId, channel],
            ...[claim.chatId, OVERLAP_US, claim.former ?? '', claim.late ? '1' : '0'],
          ]);
          if (answer[0] === 'lost') {
            lose(claim, answer[5] === 1, answer[3], answer[4] === 1);
            return;
          }
          claim.fenceUs = Number(answer[1]);
          claim.written = true;
          claim.former = undefined;
          if (answer[0] === 'won') {
            claim.restatesSeen = answer[3];
            if (answer[2] >= 0) scheduleRestate(claim, answer[2]);
          }
          if (answer[0] === 'mine' && answer[2] > claim.restatesSeen) {
            claim.restatesSeen = answer[2];
            scheduleRestate(claim, answer[3]);
          }
          logger.debug(`chat account ${claim.chatId} is this server's under fence ${claim.fenceUs} (${answer[0]})`);
          return;
        } catch (error) {
          claim.late = true;
          logger.debug(`the claim of chat account ${claim.chatId} is tried again (${errorText(error)})`);
          await retryWait(attempt);
        }
      }
    } finally {
      claim.running = false;
      const again = claim.again;
      claim.again = false;
      if (again && held.get(claim.chatId) === claim) void settle(claim);
    }
  };
  const settleAll = () => {
    for (const claim of [...held.values()]) void settle(claim);
  };

  // Another server's claim of an account this server holds: claimed again, which reads it back (the record is the
  // truth, the announcement only the news). A request to send this server's `on` again once the other calls are over.
  link
    .messages$(channel)
    .pipe(map((message) => readShared(AnnouncementSchema, message, 'the duty-owner channel')))
    .subscribe((heard) => {
      const claim = heard ? held.get(heard.chatId) : undefined;
      if (!heard || !claim) return;
      if (heard.kind === 'claim') {
        if (heard.server !== liveness.settled || heard.shift !== claim.shift) void settle(claim);
      } else if (heard.server === liveness.settled && heard.shift === claim.shift) {
        claim.restatesSeen += 1;
        scheduleRestate(claim, heard.waitMs);
      }
    });

  // Redis answers again, or this server's renewal finds it had been taken for gone: what it holds is claimed again (a
  // claim it could not write wins only with a later fence; one ended by a peer meanwhile is claimed anew). Once every
  // server had time to write again, once more: the subscribing connection may have missed their announcements.
  const reconnected = merge(link.connected$, liveness.revived$);
  reconnected.subscribe(() => {
    const at = now();
    connectedAt = at;
    answers.next();
    settleAll();
    const again = at + OWNERS_REWRITTEN_WITHIN_MS;
    checkAgainAt = again;
    void sleep(OWNERS_REWRITTEN_WITHIN_MS).then(() => {
      if (checkAgainAt === again) checkAgainAt = undefined;
      if (connectedAt === at && link.isUp) settleAll();
    });
  });
  // The grace for records nobody wrote again runs from the moment Redis answers, before anyone can ask it anything.
  link.up$.pipe(filter((up) => up)).subscribe(() => {
    connectedAt = now();
    answers.next();
  });
  liveness.renamed$.subscribe(({ former }) => {
    for (const claim of held.values()) claim.former = former;
    settleAll();
  });

  const lapsed$ = new Subject<LapsedServer>();
  liveness.lapsed$.subscribe((gone) => void takeOver(gone));
  /**
   * A lapsed server's duties, read from their records: each to be ended at the panel by this server. Redis lists the
   * takeover until every duty was handed on (a held one when its window ends); what could not be read is read again
   * when the next renewal lists it.
   */
  const takeOver = async (gone: Lapsed) => {
    takeovers += 1;
    let read: Awaited<ReturnType<typeof readLapsed>>;
    try {
      read = await readLapsed(gone);
    } finally {
      takeovers -= 1;
    }
    await Promise.all(read.later);
    if (!stopped) liveness.tookOver(gone, read.complete);
  };
  const readLapsed = async ({ server, silentForMs, chatIds, handed }: Lapsed) => {
    const duties: LapsedServer['duties'] = [];
    const later: Array<() => Promise<void>> = [];
    let complete = true;
    for (const chatId of chatIds) {
      if (handed.has(chatId)) continue;
      let read = false;
      for (let attempt = 1; attempt <= 5 && !stopped && !read; attempt++) {
        try {
          const raw = await link.call<string | null>('GET', keysOf(chatId)[0] as string);
          const owner = readShared(OwnerSchema, raw, `duty-owner:${chatId}`);
          const live = owner && owner.state !== 'ended' && owner.ended !== true;
          if (owner && live && owner.server === server) {
            const duty = { chatId, shift: owner.shift, departmentId: owner.dept };
            // A shift held for its player to come back (Config.ResumeWindowMs) ends when its window does, not before:
            // the player may still take it over on a server of the community.
            const heldForMs = Number(owner.held ?? 0) - (usOf(now())?.us ?? 0) / 1000;
            if (heldForMs > 0) later.push(() => endHeldLater(server, silentForMs, duty, heldForMs));
            else duties.push(duty);
          } else {
            // An `on` it sent that was never claimed: it died between the panel taking it and its claim (or the
            // panel never took it, and the `off` ends nothing). Ended unclaimed: while another server's claim is
            // live the `off` is not sent, and that server is asked to send its own `on` again.
            const intent = readShared(IntentSchema, await link.call('GET', intentKeyOf(chatId)), `duty-on:${chatId}`);
            if (intent?.server === server) duties.push({ chatId, shift: undefined, departmentId: intent.dept });
          }
          read = true;
          handed.add(chatId);
        } catch {
          await retryWait(attempt);
        }
      }
      if (!read) complete = false;
    }
    const said = `server ${server} stopped renewing its liveness ${Math.round(silentForMs / 1000)} s ago (it crashed, or cannot reach Redis)`;
    const ends = later.map((endLater) => endLater());
    if (duties.length === 0 && later.length === 0) logger.debug(`${said}; it owned no duty`);
    if (duties.length > 0) {
      logger.info(`${said}; this server ends its ${duties.length} duty(ies) at the panel`);
      lapsed$.next({ server, silentForMs, duties });
    }
    return { later: ends, complete };
  };

  const endHeldLater = (server: string, silentForMs: number, duty: LapsedServer['duties'][number], ms: number) => {
    logger.info(
      `server ${server} stopped renewing its liveness ${Math.round(silentForMs / 1000)} s ago with the shift of chat account ${duty.chatId} held for its player to come back (Config.ResumeWindowMs): this server ends it at the panel when its window does, in ${Math.ceil(ms / 1000)} s`,
    );
    return sleep(ms).then(() => {
      if (!stopped) lapsed$.next({ server, silentForMs, duties: [duty] });
    });
  };

  /** This server's identity, or a rejection as soon as Redis does not answer: a confirmation never hangs on it. */
  const identityWhileUp = (): Promise<string> => {
    if (liveness.settled !== undefined) return Promise.resolve(liveness.settled);
    return new Promise((resolve, reject) => {
      const down = link.up$.pipe(filter((up) => !up)).subscribe(() => reject(new Error('Redis does not answer')));
      void liveness.identity().then((identity) => {
        down.unsubscribe();
        resolve(identity);
      });
    });
  };

  const confirm = async (request: FenceRequest): Promise<FenceAnswer> => {
    // At start the kept calls go as soon as the panel answers, often before Redis has: its first answer is awaited.
    if (!link.isUp && !(await firstValueFrom(link.up$))) throw new Error('Redis does not answer');
    const identity = await identityWhileUp();
    const { chatId, fence } = request;
    if (request.fromLastRun && liveness.inherited) {
      return { kind: 'stale', why: "it is a call of the live server whose identity this server's KVP holds" };
    }
    const own = 'shift' in fence && fence.server === undefined;
    // Only this server's own fences name its claims: a lapsed server's shift may be spelled as one of them.
    const claim = own ? known.get(keyOfClaim(chatId, fence.shift)) : undefined;
    const current = held.get(chatId);
    if (own && current && current !== claim) {
      // This server put the account on duty again since: that `on` replaced this call's duty at the panel.
      return { kind: 'stale', why: 'this server has put the account on duty again since' };
    }
    const mode = 'unclaimed' in fence ? 'unclaimed' : request.action === 'off' ? 'end' : 'keep';
    const server = fence.server ?? identity;
    const shift = 'shift' in fence ? fence.shift : '';
    const fenceUs = claim ? (claim.fenceUs ?? usOf(claim.acceptedAt)?.us) : undefined;
    for (;;) {
      // A record Redis lost is written again at once for this run's own claims; for older ones, once every server
      // had time to write again what it holds.
      const create = claim !== undefined || now() - connectedAt >= OWNERS_REWRITTEN_WITHIN_MS;
      const answer = await script<ConfirmAnswer>(
        CONFIRM_LUA,
        chatId,
        [
          ...[server, shift, fenceUs ?? '', request.leaseMs, mode, identity, create ? '1' : '0', channel, chatId],
          ...[request.departmentId ?? '', livenessMs, claim?.former ?? ''],
        ],
        [serversKey],
      );
      if (answer[0] === 'go') {
        logger.debug(
          `the ${request.action} of chat account ${chatId} is confirmed under ${mode === 'unclaimed' ? 'no live claim' : `server ${server}'s shift ${shift}`}`,
        );
        return { kind: 'go' };
      }
      if (answer[0] === 'none') {
        await sleep(Math.max(0, connectedAt + OWNERS_REWRITTEN_WITHIN_MS - now()));
        continue;
      }
      if (claim) known.delete(keyOfClaim(chatId, claim.shift));
      if (answer[0] === 'ended') {
        // A peer ended this live duty while this server was cut off: claimed anew (the `on` is sent again by it).
        if (claim && held.get(chatId) === claim) void settle(claim);
        return { kind: 'stale', why: 'a peer ended the duty while this server could not reach Redis' };
      }
      const [, holder, state] = answer;
      if (claim && held.get(chatId) === claim) lose(claim, true, state);
      return {
        kind: 'stale',
        why:
          state === 'alive'
            ? `server ${holder} renews its liveness again and keeps its duty`
            : state === 'live'
              ? `server ${holder} holds the account now`
              : `its duty was ended already (by server ${holder})`,
      };
    }
  };

  const owners: DutyOwners = {
    claim(chatId, shift, departmentId) {
      for (const [key, claim] of known) if (claim.chatId === chatId) known.delete(key);
      const claim: Claim = {
        ...{ chatId, shift, departmentId, acceptedAt: now(), sentAt: onSentAt.get(chatId) },
        ...{
          fenceUs: undefined,
          written: false,
          late: false,
          former: undefined,
          restatesSeen: 0,
          restateDue: undefined,
          running: false,
        },
        again: false,
      };
      onSentAt.delete(chatId);
      held.set(chatId, claim);
      known.set(keyOfClaim(chatId, shift), claim);
      void settle(claim);
    },
    release(chatId, shift) {
      if (held.get(chatId)?.shift === shift) held.delete(chatId);
    },
    async intend(chatId, departmentId) {
      if (!link.isUp) return;
      // Just after a start the identity may still be settling (a few round trips): waited for, at most as long as
      // one Redis command. A restart that must wait out its last run's liveness sends its `on` unannounced.
      const identity =
        liveness.settled ?? (await Promise.race([liveness.identity(), sleep(INTENT_WAIT_MS).then(() => undefined)]));
      if (identity === undefined) {
        logger.debug(`the on of chat account ${chatId} goes unannounced: this server's identity is not settled yet`);
        return;
      }
      try {
        await link.script(
          INTENT_LUA,
          [intentKeyOf(chatId), keysOf(chatId)[1] as string],
          [...[identity, departmentId, intentTtlMs, chatId]],
        );
      } catch (error) {
        logger.debug(`the on of chat account ${chatId} goes unannounced (${errorText(error)})`);
      }
    },
    hold(chatId, shift, { windowMs, since, rankId }) {
      void liveness
        .identity()
        .then((identity) => script(HOLD_LUA, chatId, [identity, shift, windowMs, since, rankId]))
        .catch((error: unknown) => {
          logger.debug(`the held shift of chat account ${chatId} is held on this server only (${errorText(error)})`);
        });
    },
    async takeHeld(chatId, src): Promise<HeldElsewhere | undefined> {
      if (!link.isUp || liveness.settled === undefined) return undefined;
      const identity = liveness.settled;
      const take = () =>
        script<TakeHeldAnswer>(TAKE_HELD_LUA, chatId, [identity, options.run.id, src, channel, chatId]);
      // A take that timed out may have run all the same: tried again, it answers what it took.
      let answer: TakeHeldAnswer | undefined;
      for (let attempt = 1; answer === undefined; attempt++) {
        try {
          answer = await take();
        } catch (error) {
          if (attempt >= TAKE_HELD_ATTEMPTS || stopped) throw error;
          await retryWait(attempt);
        }
      }
      if (answer[0] !== 'took') return undefined;
      const [, fence, shift, departmentId, rankId, since, leftMs] = answer;
      const at = now();
      for (const [key, claim] of known) if (claim.chatId === chatId) known.delete(key);
      const claim: Claim = {
        ...{ chatId, shift, departmentId, acceptedAt: at, sentAt: at, fenceUs: Number(fence), written: true },
        ...{ late: false, former: undefined, restatesSeen: 0, restateDue: undefined, running: false, again: false },
      };
      held.set(chatId, claim);
      known.set(keyOfClaim(chatId, shift), claim);
      logger.info(`chat account ${chatId} joined with its shift held on another server: this server takes it over`);
      return { departmentId, rankId, since: Number(since), leftMs };
    },
    sending(chatId) {
      const at = now();
      onSentAt.set(chatId, Math.min(onSentAt.get(chatId) ?? at, at));
      // An `on` the panel never took leaves its moment behind: forgotten once far older than any claim could use.
      if (onSentAt.size > SENT_KEPT_AT_MOST) {
        for (const [account, sentAt] of onSentAt) if (at - sentAt > SENT_KEPT_MS) onSentAt.delete(account);
      }
    },
    confirm,
    delivered(request) {
      const { chatId, fence } = request;
      // An `on` of the claim (a restate, a new rank) leaves it live: its later calls go under it still.
      if (!('shift' in fence) || request.action !== 'off') return;
      known.delete(keyOfClaim(chatId, fence.shift));
      void liveness.identity().then((identity) =>
        script(ENDED_LUA, chatId, [fence.server ?? identity, fence.shift, chatId]).catch(() => {
          // The record stays `ending`: no claim waits on that, and it is ended all the same at the panel.
        }),
      );
    },
    answers$: answers.asObservable(),
    takenElsewhere$: taken.asObservable(),
    restate$: restates.asObservable(),
    lapsed$: lapsed$.asObservable(),
    settling() {
      const at = now();
      const due = [...restatesDue].map((restate) => Math.max(0, restate.at - at));
      return {
        claims: [...held.values()].filter((claim) => claim.running || !claim.written).length,
        restates: due.length,
        nextRestateInMs: due.length > 0 ? Math.min(...due) : undefined,
        // The check after a reconnection reads the claims held then: with none, there is nothing to check.
        checkAgainInMs: checkAgainAt === undefined || held.size === 0 ? undefined : Math.max(0, checkAgainAt - at),
        takeovers,
      };
    },
    fenceGate: (gateOptions) => new OutboxFenceGate(owners, { ...gateOptions, logger }),
    stop() {
      stopped = true;
      liveness.stop();
    },
  };
  return owners;
}
