import { filter, map, merge, mergeMap, type Subscription } from 'rxjs';
import type { ProfilePayload } from '../../../shared/events.js';
import type { Duty } from '../../duty/index.js';
import type { Logger, PlayerRegistry, PlayerSession, ServerPort } from '../../kernel/index.js';
import { guarded } from '../../kernel/index.js';
import type { Profiles, RevalidationAsks } from '../../profiles/index.js';
import { readDrop } from '../players/drop-reading.js';
import type { TokenExposureCheck } from '../security/token-exposure-check.js';
import type { ClientEventLimits } from './client-event-limits.js';
import { dutyRequestHandler } from './duty-request.js';
import { refreshOtherRequestHandler } from './refresh-other-request.js';
import { refreshRequestHandler } from './refresh-request.js';

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
