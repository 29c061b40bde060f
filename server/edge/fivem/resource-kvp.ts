import type { KeyValueStore } from '../../kernel/index.js';

/** Resource KVP: persisted by FXServer per resource, so it survives resource and server restarts. */
export function createResourceKvpStore(): KeyValueStore {
  return {
    get: (key) => GetResourceKvpString(key) ?? null,
    // The synchronous variant: a record must be on disk before the call it describes is sent.
    set: (key, value) => SetResourceKvp(key, value),
    delete: (key) => DeleteResourceKvp(key),
    keys(prefix) {
      const handle = StartFindKvp(prefix);
      if (handle === -1) return [];
      const keys: string[] = [];
      try {
        for (let key = FindKvp(handle); typeof key === 'string' && key !== ''; key = FindKvp(handle)) keys.push(key);
      } finally {
        EndFindKvp(handle);
      }
      return keys;
    },
  };
}
