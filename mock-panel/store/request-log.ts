export type FaultApplied = 'latency' | 'reset' | 'hang' | 'proxy_404' | 'error' | 'malformed';

export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  /** null when no response was sent (connection reset or hang). */
  status: number | null;
  latencyMs: number;
  clientIp: string;
  faults: FaultApplied[];
  /** Present on the bridge's start-up check (GET or HEAD of the departments of STARTUP_CHECK_CHAT_ID). */
  startupCheck?: true;
}

/** The `/api/leo` requests the panel saw, oldest first, capped so a long-running mock does not grow forever. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  // Beyond the capped list: how many requests got each status since the start (or the last clear), for the
  // dashboard's count of 429s over a storm of thousands.
  private totals = { requests: 0, tooManyRequests: 0 };

  constructor(private readonly capacity = 1000) {}

  // Up to twice the capacity is kept and cut back in one go: dropping the oldest entry at every request of a load
  // test moved the whole array each time.
  record(entry: RequestLogEntry): void {
    this.totals.requests += 1;
    if (entry.status === 429) this.totals.tooManyRequests += 1;
    this.entries.push(entry);
    if (this.entries.length >= 2 * this.capacity) this.entries = this.entries.slice(-this.capacity);
  }

  list(): RequestLogEntry[] {
    return this.entries.slice(-this.capacity).map((entry) => ({ ...entry, faults: [...entry.faults] }));
  }

  /** Every request recorded since the start or the last clear, and how many were answered 429. */
  counts(): { requests: number; tooManyRequests: number } {
    return { ...this.totals };
  }

  clear(): void {
    this.totals = { requests: 0, tooManyRequests: 0 };
    this.entries = [];
  }
}
