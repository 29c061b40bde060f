export type FaultApplied = 'latency' | 'reset' | 'hang' | 'error' | 'malformed';

export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  /** null when no response was sent (connection reset or hang). */
  status: number | null;
  latencyMs: number;
  clientIp: string;
  faults: FaultApplied[];
}

/** The `/api/leo` requests the panel saw, oldest first, capped so a long-running mock does not grow forever. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];

  constructor(private readonly capacity = 1000) {}

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  list(): RequestLogEntry[] {
    return this.entries.map((entry) => ({ ...entry, faults: [...entry.faults] }));
  }

  clear(): void {
    this.entries = [];
  }
}
