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

  constructor(private readonly capacity = 1000) {}

  // Up to twice the capacity is kept and cut back in one go: dropping the oldest entry at every request of a load
  // test moved the whole array each time.
  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length >= 2 * this.capacity) this.entries = this.entries.slice(-this.capacity);
  }

  list(): RequestLogEntry[] {
    return this.entries.slice(-this.capacity).map((entry) => ({ ...entry, faults: [...entry.faults] }));
  }

  clear(): void {
    this.entries = [];
  }
}
