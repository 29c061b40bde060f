import { filter, map, merge, mergeMap, type Subscription } from 'rxjs';
import type { ProfilePayload } from '../../shared/events.js';
import { type DutyOutcome, INTERNAL_EVENTS } from '../../shared/events.js';
import * as z from '../../shared/zod-mini.js';
import type { Drop, Duty } from '../duty/index.js';
import type { Logger, PlayerDrop, PlayerRegistry, PlayerSession, ServerPort } from '../kernel/index.js';
import { guarded } from '../kernel/index.js';
import type { Profiles, RevalidationAsks } from '../profiles/index.js';
import type { ClientEventLimits } from './client-event-limits.js';
import { describeRefresh } from './commands/bridge-command.js';
import { parsePlayerId, playerLabel } from './commands/dutykick-command.js';
import type { TokenExposureCheck } from './token-exposure-check.js';

// The players' joins and drops and their clients' events: one stream each, and the handler of each event a client
// sends. Everything a client sends is untrusted and rate limited (client-event-limits.ts).

export interface ClientEventsDeps {
  port: ServerPort;
  /** The monotonic clock. */
  now: () => number;
  refreshCooldownMs: number;
  logger: Logger;
  players: PlayerRegistry;
  openSession: (src: number) => PlayerSession;
  /** Told the number of players online after each join. */
  playersOnline: (count: number) => void;
  duty: Pick<Duty, 'request' | 'leave' | 'submit'>;
  /** Config.ResumeWindowMs is on: a session that joins may take its account's held shift. */
  resumeShifts: boolean;
  /** In a community: a session that joins may take over its account's shift held on another server. */
  takeHeldElsewhere?: (src: number) => Promise<void>;
  profiles: Pick<Profiles, 'view' | 'serve' | 'revalidate' | 'refresh'>;
  /** A supervisor's /dutyrefresh <id>: RefreshPlayer, bypassing the cache and the target's cooldown. */
  refreshOther: (src: number) => Promise<ProfilePayload>;
  limits: ClientEventLimits;
  revalidationAsks: RevalidationAsks;
  tokenExposure: TokenExposureCheck;
  /** Everything kept about a player who dropped is let go, once their duty has ended. */
  forget: (src: number) => void;
}

/** The players' joins and drops and their clients' events, each its own stream; a failure never ends one. */
export function subscribeClientEvents(deps: ClientEventsDeps): Subscription {
  const { port, logger, players, openSession, duty, profiles, limits, revalidationAsks, tokenExposure } = deps;
  const handleDutyRequest = dutyRequestHandler(deps);
  const handleRefresh = refreshRequestHandler({ ...deps, cooldownMs: deps.refreshCooldownMs });
  const handleRefreshOther = refreshOtherRequestHandler({ ...deps, refresh: deps.refreshOther });
  return merge(
    port.joins$.pipe(
      mergeMap(
        guarded('join', logger, async (src: number) => {
          openSession(src);
          deps.playersOnline(players.size);
          if (deps.resumeShifts) duty.submit({ kind: 'resume', src });
          await Promise.all([profiles.view(src, { priority: 'join' }), deps.takeHeldElsewhere?.(src)]);
        }),
      ),
    ),
    port.clientReady$.pipe(
      filter(({ src }) => limits.admit('ready', src)),
      mergeMap(
        guarded('profile', logger, async ({ src }) => {
          openSession(src);
          tokenExposure.challenge(src);
          await profiles.serve(src);
        }),
      ),
    ),
    port.dutyRequests$.pipe(mergeMap(guarded('duty request', logger, ({ src, args }) => handleDutyRequest(src, args)))),
    port.refreshRequests$.pipe(
      map(({ src }) => src),
      mergeMap(guarded('refresh', logger, handleRefresh)),
    ),
    port.refreshOtherRequests$.pipe(
      mergeMap(guarded('supervisor refresh', logger, ({ src, args }) => handleRefreshOther(src, args))),
    ),
    // Stale-while-revalidate: the client already shows its profile; the new one arrives as a background refresh.
    port.revalidateRequests$.pipe(
      filter(({ src }) => players.get(src) !== undefined && limits.admit('revalidate', src)),
      filter(({ src }) => revalidationAsks.admit(src)),
      mergeMap(guarded('profile revalidation', logger, async ({ src }) => profiles.revalidate(src))),
    ),
    port.tokenProofs$.pipe(
      filter(({ src }) => limits.admit('tokenProof', src)),
      mergeMap(guarded('token check', logger, async ({ src, args }) => tokenExposure.answer(src, args))),
    ),
    port.drops$.pipe(
      mergeMap(
        guarded('drop', logger, async ({ src, ...drop }) => {
          const reading = readDrop(drop);
          const chatId = players.chatId(src);
          await duty.leave(src, reading);
          deps.forget(src);
          // A game that froze and came back before the server gave up on it: its new session takes the shift.
          if (deps.resumeShifts && reading.resumable && chatId !== undefined) {
            for (const other of players.sessionsOf(chatId)) duty.submit({ kind: 'resume', src: other.src });
          }
        }),
      ),
    ),
  ).subscribe();
}

// Everything a client sends is untrusted: ids are bounded integers, and nothing else is read from the payload.
const requestIdField = z.int().check(z.gte(0), z.lte(2_147_483_647));
const departmentIdField = z.int().check(z.gte(1), z.lte(2_147_483_647));

/** `bridge:internal:dutyRequest (requestId, on, departmentId | null)`: the only duty input a client has. */
export const DutyRequestArgsSchema = z.tuple([requestIdField, z.boolean(), z.nullable(departmentIdField)]);

export type DutyRequestArgs = z.infer<typeof DutyRequestArgsSchema>;

/** The request id of a malformed request, when there is a usable one, so the client can still be answered. */
export const requestIdOf = (args: readonly unknown[]): number | undefined => {
  const parsed = requestIdField.safeParse(args[0]);
  return parsed.success ? parsed.data : undefined;
};

export interface DutyRequestDeps {
  port: Pick<ServerPort, 'emitClient'>;
  players: PlayerRegistry;
  limits: ClientEventLimits;
  duty: Pick<Duty, 'request'>;
  logger: Logger;
}

/**
 * `bridge:internal:dutyRequest (requestId, on, departmentId)` from a player's client: never trusted, rate limited,
 * answered with `bridge:internal:dutyResult (requestId, outcome)` whenever there is a request id to answer.
 */
export const dutyRequestHandler =
  ({ port, players, limits, duty, logger }: DutyRequestDeps) =>
  async (src: number, args: unknown[]): Promise<void> => {
    const answer = (requestId: number, outcome: DutyOutcome) =>
      port.emitClient(INTERNAL_EVENTS.dutyResult, src, requestId, outcome);
    const parsed = DutyRequestArgsSchema.safeParse(args);
    const requestId = parsed.success ? parsed.data[0] : requestIdOf(args);
    if (!players.get(src)) return;
    if (!limits.admit('dutyRequest', src)) {
      if (requestId !== undefined) answer(requestId, { ok: false, error: 'too_many_requests', message: 'slow down' });
      return;
    }
    if (!parsed.success) {
      logger.debug(`player ${src} sent a malformed duty request`);
      if (requestId !== undefined) {
        answer(requestId, { ok: false, error: 'invalid_request', message: 'malformed duty request' });
      }
      return;
    }
    const [id, on, departmentId] = parsed.data;
    answer(id, await duty.request(on ? { kind: 'on', src, departmentId } : { kind: 'off', src, reason: 'request' }));
  };

export interface RefreshRequestDeps {
  port: Pick<ServerPort, 'emitClient'>;
  players: PlayerRegistry;
  limits: ClientEventLimits;
  profiles: Pick<Profiles, 'refresh'>;
  /** The monotonic clock. */
  now: () => number;
  cooldownMs: number;
}

/**
 * /dutyrefresh: the profile fetched again bypassing the cache, after a cooldown per player. The cooldown, set before
 * the request goes out, keeps one player's refreshes apart; players never wait for each other's.
 */
export const refreshRequestHandler =
  ({ port, players, limits, profiles, now, cooldownMs }: RefreshRequestDeps) =>
  async (src: number): Promise<void> => {
    const session = players.get(src);
    if (!session) return;
    const at = now();
    const waitMs = session.lastRefreshAt === undefined ? 0 : session.lastRefreshAt + cooldownMs - at;
    if (waitMs > 0 || !limits.admit('refresh', src)) {
      port.emitClient(INTERNAL_EVENTS.notify, src, 'refresh_cooldown', {
        seconds: Math.max(1, Math.ceil(waitMs / 1000)),
      });
      return;
    }
    session.lastRefreshAt = at;
    const view = await profiles.refresh(src);
    port.emitClient(INTERNAL_EVENTS.notify, src, view.payload.ok && !view.stale ? 'refreshed' : 'refresh_failed', {});
  };

/** What a supervisor needs for `/dutyrefresh <id>`; plain `/dutyrefresh` stays everyone's. */
export const REFRESH_OTHERS_ACE = 'command.dutyrefresh.others';

export interface RefreshOtherRequestDeps {
  port: Pick<ServerPort, 'isPlayerAceAllowed' | 'reply'>;
  players: PlayerRegistry;
  limits: ClientEventLimits;
  logger: Logger;
  /** Fetches the player's profile bypassing the cache and their cooldown, and sends it to them (RefreshPlayer). */
  refresh(src: number): Promise<ProfilePayload>;
}

/**
 * `/dutyrefresh <id>`: the client sends the id as typed; the server decides. The sender must hold the ACE
 * `command.dutyrefresh.others` (asked of FXServer for this player, never of the client), else nothing is fetched and
 * nobody else learns of it. Every use, refused or not, is logged with who did it.
 */
export const refreshOtherRequestHandler =
  ({ port, players, limits, logger, refresh }: RefreshOtherRequestDeps) =>
  async (src: number, args: unknown[]): Promise<void> => {
    if (!players.get(src) || !limits.admit('refreshOther', src)) return;
    const reply = (line: string) => port.reply(src, line);
    const typed = typeof args[0] === 'string' || typeof args[0] === 'number' ? String(args[0]) : undefined;
    const by = playerLabel(src, players);
    if (!port.isPlayerAceAllowed(src, REFRESH_OTHERS_ACE)) {
      logger.info(`${by} may not refresh other players (/dutyrefresh <id>): no ACE ${REFRESH_OTHERS_ACE}`);
      reply(`you may not refresh other players (the ACE ${REFRESH_OTHERS_ACE} is needed)`);
      return;
    }
    const id = parsePlayerId(typed, (candidate) => players.get(candidate) !== undefined);
    if (id === undefined) {
      reply(`no connected player "${typed?.slice(0, 20) ?? ''}"; usage: /dutyrefresh <player id>`);
      return;
    }
    logger.info(`${by} refreshes ${playerLabel(id, players)} (/dutyrefresh ${id})`);
    reply(describeRefresh(id, await refresh(id)));
  };

// FXServer's ClientDropReason (citizenfx/fivem 06d4d348, code/components/citizen-server-impl/include/
// ClientDropReasons.h): CLIENT (2) is the client's own msgIQuit, CLIENT_REPLACED (4) the same game connecting again
// (InitConnectMethod.cpp: `Reconnecting`), 5 and 6 the server's timeouts (GameServer.cpp: `Server->client connection
// timed out. ...`), 12 OneSync's (ServerGameState.cpp: `Timed out after 60 seconds ...`).
const CLIENT = 2;
const GAME_GONE_WITHOUT_QUITTING = new Set([4, 5, 6, 12]);
/** MiniDump.cpp: the crash handler has the client send `Game crashed: <what crashed>` before the game dies. */
const GAME_CRASHED = /^Game crashed: /;
/** What the timeouts above say, for an artifact that does not pass the code. */
const TIMED_OUT = /timed out/i;

// txAdmin v8.0.1 (d8c5515b), resource/sv_main.lua: its monitor resource drops with '[txAdmin] ' and the message its
// core wrote in the server's language (locale/en.json: kick_messages.player `You have been kicked: ...`,
// ban_messages.kick_permanent / kick_temporary `(admin) You have been [permanently] banned ...`). txAdmin fires its
// event before it drops, so the event names the reason first (server/edge/txadmin.ts); the text is read only for a drop that
// comes first, and only in English.
const TXADMIN = 'monitor';
const TXADMIN_KICKED = /^\[txAdmin\] You have been kicked/;
const TXADMIN_BANNED = /^\[txAdmin\] .*You have been (permanently )?banned/;

/**
 * What a drop means for the duty: who ended the session (`dropped`, or `kicked` / `banned` by txAdmin), and whether
 * the player did not choose to leave (`resumable`: the game crashed, timed out or connected again), so that
 * Config.ResumeWindowMs may hold their shift. A drop the player chose (`Exiting`, `Disconnected.`, `Quit: ...`) and
 * any drop by a resource are not resumable.
 */
export function readDrop({ reason, resource, code }: PlayerDrop): Required<Drop> {
  if (resource === TXADMIN && TXADMIN_BANNED.test(reason)) return { reason: 'banned', resumable: false };
  if (resource === TXADMIN && TXADMIN_KICKED.test(reason)) return { reason: 'kicked', resumable: false };
  const resumable =
    code === undefined
      ? GAME_CRASHED.test(reason) || TIMED_OUT.test(reason)
      : GAME_GONE_WITHOUT_QUITTING.has(code) || (code === CLIENT && GAME_CRASHED.test(reason));
  return { reason: 'dropped', resumable };
}
