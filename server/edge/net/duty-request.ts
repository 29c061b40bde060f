import { type DutyOutcome, INTERNAL_EVENTS } from '../../../shared/events.js';
import type { Duty } from '../../duty/index.js';
import type { Logger, PlayerRegistry, ServerPort } from '../../kernel/index.js';
import type { ClientEventLimits } from './client-event-limits.js';
import { DutyRequestArgsSchema, requestIdOf } from './client-requests.js';

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
