import { PANEL_RATE_LIMIT } from '../../shared/contract';
import type { MockPanelData } from '../data/schema';
import { DutyBook } from './duty-book';
import { Faults } from './faults';
import { FixedWindowRateLimiter, type RateLimitWindow } from './rate-limiter';
import { RequestLog } from './request-log';
import { UserDirectory } from './user-directory';

export type { DutySession } from './duty-book';
export type { RateLimitInfo, RateLimitWindow } from './rate-limiter';
export type { FaultApplied, RequestLogEntry } from './request-log';

export interface PanelStoreOptions {
  data: MockPanelData;
  /** The panel's `CHAT_GUILD_ID`; the data file's guild when absent. */
  guildId?: string | undefined;
  /** Epoch ms; inject a fake clock to drive rate-limit windows and session durations in tests. */
  now?: (() => number) | undefined;
  rateLimit?: Partial<RateLimitWindow> | undefined;
}

/** All state of the mock panel, apart from the routes. */
export interface PanelStore {
  readonly guildId: string;
  readonly now: () => number;
  readonly users: UserDirectory;
  readonly duty: DutyBook;
  readonly requests: RequestLog;
  readonly rateLimiter: FixedWindowRateLimiter;
  readonly faults: Faults;
  /** Back to the seed: roles, duty, sessions, request log, rate-limit windows and faults. */
  reset(): void;
}

export function createPanelStore(options: PanelStoreOptions): PanelStore {
  const now = options.now ?? Date.now;
  const guildId = options.guildId ?? options.data.guildId;
  const users = new UserDirectory(options.data, guildId);
  const duty = new DutyBook(now);
  const requests = new RequestLog();
  const rateLimiter = new FixedWindowRateLimiter(
    {
      limit: options.rateLimit?.limit ?? PANEL_RATE_LIMIT.limit,
      windowMs: options.rateLimit?.windowMs ?? PANEL_RATE_LIMIT.windowMs,
    },
    now,
  );
  const faults = new Faults();
  return {
    guildId,
    now,
    users,
    duty,
    requests,
    rateLimiter,
    faults,
    reset() {
      users.reset();
      duty.reset();
      requests.clear();
      rateLimiter.reset();
      faults.clear();
    },
  };
}
