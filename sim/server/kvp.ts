// Resource KVP (fivem-runtime.md §8). Each resource has its own namespace; values keep their type (string, int,
// float). On the server the store is a write-ahead log per resource in a directory the test chooses, so a new
// simulated server on the same directory sees the same data (FXServer keeps RocksDB under db/).
//
// Durability follows the worst case FiveM documents for the NoSync natives ("a system crash may lose the data to
// some recent operations"): a NoSync write is visible at once but reaches the log only with the next synced
// write of any resource (one write-ahead log for the whole server), FlushResourceKvp, or an orderly shutdown. A
// hard kill (sim.kill()) loses whatever had not reached the log by then.
import fs from 'node:fs';
import path from 'node:path';

export type KvpValue = { t: 's'; v: string } | { t: 'i'; v: number } | { t: 'f'; v: number };

type LogLine = { k: string; d: 1 } | ({ k: string } & KvpValue);

export class KvpStore {
  /** What scripts read: every write, synced or not. */
  private readonly data = new Map<string, Map<string, KvpValue>>();
  /** Without a directory: what has reached the "log", kept in memory instead of a file. */
  private readonly durable = new Map<string, Map<string, KvpValue>>();
  /** NoSync writes not in the log yet, in the order they were made, across resources. */
  private unsynced: { resource: string; line: LogLine }[] = [];

  /** `dir` null keeps everything in memory (a client's own KVP, or a test that does not need persistence). */
  constructor(private readonly dir: string | null) {
    if (dir) fs.mkdirSync(dir, { recursive: true });
  }

  private file(resource: string): string | null {
    return this.dir ? path.join(this.dir, `${encodeURIComponent(resource)}.kvp.jsonl`) : null;
  }

  private namespace(resource: string): Map<string, KvpValue> {
    let ns = this.data.get(resource);
    if (ns) return ns;
    ns = new Map(this.durable.get(resource));
    this.data.set(resource, ns);
    const file = this.file(resource);
    if (file && fs.existsSync(file)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
      for (const line of lines) apply(ns, JSON.parse(line) as LogLine);
      // Keep the log short: rewrite it as one line per live key when it is mostly history.
      if (lines.length > 64 && lines.length > ns.size * 2) {
        const compact = [...ns].map(([k, v]) => JSON.stringify({ k, ...v })).join('\n');
        fs.writeFileSync(file, compact ? `${compact}\n` : '');
      }
    }
    return ns;
  }

  private write(resource: string, line: LogLine, sync: boolean): void {
    this.unsynced.push({ resource, line });
    if (sync) this.flush();
  }

  /** Puts every NoSync write made so far into the log (FlushResourceKvp, a synced write, an orderly shutdown). */
  flush(): void {
    const pending = this.unsynced;
    this.unsynced = [];
    for (const { resource, line } of pending) {
      const file = this.file(resource);
      if (file) fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
      else {
        const ns = this.durable.get(resource) ?? new Map<string, KvpValue>();
        this.durable.set(resource, ns);
        apply(ns, line);
      }
    }
  }

  /** The process died: NoSync writes that never reached the log are gone; the next read loads what is logged. */
  crash(): void {
    this.unsynced = [];
    this.data.clear();
  }

  set(resource: string, key: string, value: KvpValue, { sync = true } = {}): void {
    this.namespace(resource).set(key, value);
    this.write(resource, { k: key, ...value }, sync);
  }

  get(resource: string, key: string): KvpValue | undefined {
    return this.namespace(resource).get(key);
  }

  delete(resource: string, key: string, { sync = true } = {}): void {
    if (this.namespace(resource).delete(key)) this.write(resource, { k: key, d: 1 }, sync);
  }

  /** Keys with the prefix, in byte order (RocksDB iteration order). */
  keys(resource: string, prefix: string): string[] {
    return [...this.namespace(resource).keys()].filter((k) => k.startsWith(prefix)).sort(compareBytes);
  }
}

function apply(ns: Map<string, KvpValue>, entry: LogLine): void {
  if ('d' in entry) ns.delete(entry.k);
  else ns.set(entry.k, { t: entry.t, v: entry.v } as KvpValue);
}

function compareBytes(a: string, b: string): number {
  const ea = Buffer.from(a);
  const eb = Buffer.from(b);
  return Buffer.compare(ea, eb);
}

/** StartFindKvp/FindKvp/EndFindKvp: 64 handles shared by the whole server. */
export class KvpFinds {
  private readonly handles: ({ keys: string[]; pos: number } | null)[] = new Array(64).fill(null);

  start(keys: string[]): number {
    const i = this.handles.indexOf(null);
    if (i < 0) return -1;
    this.handles[i] = { keys, pos: 0 };
    return i;
  }

  next(handle: number): string | null {
    const h = this.handles[handle];
    if (!h || h.pos >= h.keys.length) return null;
    return h.keys[h.pos++] ?? null;
  }

  end(handle: number): void {
    if (handle >= 0 && handle < this.handles.length) this.handles[handle] = null;
  }
}
