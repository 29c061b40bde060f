// Console variables (fivem-runtime.md §5): `set` is server-only, `setr` replicates to clients, `sets` is server
// info; flags are only ever added, so a later `set` keeps a convar replicated.
export interface Convar {
  value: string;
  replicated: boolean;
  serverInfo: boolean;
}

export type ConvarListener = (name: string) => void;

export class ConvarStore {
  private readonly vars = new Map<string, Convar>();
  private readonly listeners = new Map<number, { pattern: string | null; fn: ConvarListener; owner: string }>();
  private nextCookie = 1;

  set(name: string, value: string, flags: { replicated?: boolean; serverInfo?: boolean } = {}): void {
    const existing = this.vars.get(name);
    const convar: Convar = {
      value,
      replicated: (existing?.replicated ?? false) || (flags.replicated ?? false),
      serverInfo: (existing?.serverInfo ?? false) || (flags.serverInfo ?? false),
    };
    this.vars.set(name, convar);
    if (existing?.value !== value) {
      for (const listener of [...this.listeners.values()]) {
        if (listener.pattern === null || matches(listener.pattern, name)) listener.fn(name);
      }
    }
  }

  get(name: string): Convar | undefined {
    return this.vars.get(name);
  }

  replicated(): [string, string][] {
    return [...this.vars].filter(([, v]) => v.replicated).map(([k, v]) => [k, v.value]);
  }

  addListener(pattern: string | null, owner: string, fn: ConvarListener): number {
    const cookie = this.nextCookie++;
    this.listeners.set(cookie, { pattern, fn, owner });
    return cookie;
  }

  removeListener(cookie: number): void {
    this.listeners.delete(cookie);
  }

  removeListenersOf(owner: string): void {
    for (const [cookie, l] of this.listeners) if (l.owner === owner) this.listeners.delete(cookie);
  }
}

function matches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const re = new RegExp(`^${pattern.split('*').map(escapeRe).join('.*')}$`);
  return re.test(name);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** GetConvarInt's parsing: lower-cased, true/false as 1/0, then C++ stoi (leading digits; none → default). */
export function convarInt(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  if (v === 'true') return 1;
  if (v === 'false') return 0;
  const m = /^\s*[+-]?\d+/.exec(v);
  if (!m) return fallback;
  const n = Number.parseInt(m[0], 10);
  return n | 0;
}

export function convarBool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  const m = /^\s*[+-]?\d+/.exec(v);
  if (!m) return fallback;
  return Number.parseInt(m[0], 10) !== 0;
}

export function convarFloat(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number.parseFloat(value);
  return Number.isNaN(n) ? fallback : n;
}
