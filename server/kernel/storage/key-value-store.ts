/** The slice of resource KVP the bridge uses; the FiveM adapter implements it with the KVP natives. */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
  /** Every key that starts with `prefix`, in no particular order. */
  keys(prefix: string): string[];
}

/** An in-memory store for tests and for running without KVP. */
export function createMemoryStore(): KeyValueStore & { readonly entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: (key) => entries.get(key) ?? null,
    set: (key, value) => {
      entries.set(key, value);
    },
    delete: (key) => {
      entries.delete(key);
    },
    keys: (prefix) => [...entries.keys()].filter((key) => key.startsWith(prefix)),
  };
}
