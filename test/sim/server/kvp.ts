// Resource KVP (fivem-runtime.md §8). Each resource has its own namespace; values keep their type (string, int,
// float). On the server the store is a write-ahead log per resource in a directory the test chooses, so a new
// simulated server on the same directory sees the same data (FXServer keeps RocksDB under db/). Writes are
// appended at once, NoSync ones included: the simulator does not reproduce losing unsynced writes in a crash.
import fs from 'node:fs';
import path from 'node:path';

export type KvpValue = { t: 's'; v: string } | { t: 'i'; v: number } | { t: 'f'; v: number };

type LogLine = { k: string; d: 1 } | ({ k: string } & KvpValue);

export class KvpStore {
  private readonly data = new Map<string, Map<string, KvpValue>>();

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
    ns = new Map();
    this.data.set(resource, ns);
    const file = this.file(resource);
    if (file && fs.existsSync(file)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
      for (const line of lines) {
        const entry = JSON.parse(line) as LogLine;
        if ('d' in entry) ns.delete(entry.k);
        else ns.set(entry.k, { t: entry.t, v: entry.v } as KvpValue);
      }
      // Keep the log short: rewrite it as one line per live key when it is mostly history.
      if (lines.length > 64 && lines.length > ns.size * 2) {
        const compact = [...ns].map(([k, v]) => JSON.stringify({ k, ...v })).join('\n');
        fs.writeFileSync(file, compact ? `${compact}\n` : '');
      }
    }
    return ns;
  }

  private append(resource: string, line: LogLine): void {
    const file = this.file(resource);
    if (file) fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }

  set(resource: string, key: string, value: KvpValue): void {
    this.namespace(resource).set(key, value);
    this.append(resource, { k: key, ...value });
  }

  get(resource: string, key: string): KvpValue | undefined {
    return this.namespace(resource).get(key);
  }

  delete(resource: string, key: string): void {
    if (this.namespace(resource).delete(key)) this.append(resource, { k: key, d: 1 });
  }

  /** Keys with the prefix, in byte order (RocksDB iteration order). */
  keys(resource: string, prefix: string): string[] {
    return [...this.namespace(resource).keys()].filter((k) => k.startsWith(prefix)).sort(compareBytes);
  }
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
