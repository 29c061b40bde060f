import { type Logger, OncePerKey } from '../kernel/index.js';
import type { PanelFailure } from '../panel/index.js';
import { reportTokenRefused } from '../panel/index.js';
import type { DutyCall } from './duty-call.js';

// Failures the circuit breaker reports already (the panel does not answer) or the scheduler waits out (429).
const TOLD_ELSEWHERE: ReadonlySet<PanelFailure['kind']> = new Set([
  'timeout',
  'network',
  'server_error',
  'rate_limited',
]);

/**
 * What the outbox tells the console about its calls: a call the panel refused, a retry, and a fault that keeps the
 * calls from getting through, told once per kind until a call gets through again, however many calls meet it.
 */
export class OutboxFaultReports {
  /** Kinds of fault told since the last delivery. */
  private readonly told = new OncePerKey<PanelFailure['kind']>();

  constructor(private readonly logger: Logger) {}

  /** The panel refused the call itself: it is dropped. */
  refused(call: DutyCall, failure: PanelFailure): void {
    if (call.action === 'off' && failure.code === 'user_not_found') {
      // A deleted or banned account has no duty left at the panel to end: the `off` asked for what is already so.
      this.logger.info(`the panel no longer knows chat id ${call.body.chatId}: its duty there ended with the account`);
      return;
    }
    this.logger.warn(
      `the panel refused duty ${call.action} for chat id ${call.body.chatId}: ${failure.code ?? failure.kind} (${failure.message}); the call is dropped`,
    );
  }

  /** An attempt failed and the call waits `waitMs` before the next. */
  retrying(call: DutyCall, failure: PanelFailure, waitMs: number): void {
    this.fault(failure);
    this.logger.debug(
      `duty ${call.action} for chat id ${call.body.chatId} failed (${failure.kind}); retrying in ${waitMs} ms`,
    );
  }

  /** A call got through. */
  delivered(): void {
    if (!this.told.forgetAll()) return;
    this.logger.info('duty calls get through to the panel again');
  }

  private fault(failure: PanelFailure): void {
    if (TOLD_ELSEWHERE.has(failure.kind)) return;
    if (failure.kind === 'unauthorized') {
      reportTokenRefused(this.logger);
      return;
    }
    if (!this.told.first(failure.kind)) return;
    const { message, status } = failure;
    const statusNote = status === undefined || message.includes(String(status)) ? '' : ` (HTTP ${status})`;
    this.logger.warn(
      `duty calls do not get through: ${message}${statusNote}; they stay queued and are retried until the panel takes them`,
    );
  }
}
