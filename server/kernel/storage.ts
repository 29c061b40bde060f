// What the bridge keeps across restarts: the KVP store, and its records read back with a schema or set aside.
import type * as z from '../../shared/zod-mini.js';

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

export type KeptRead<T> = { ok: true; record: T } | { ok: false; problem: string };

/**
 * A value a run kept in KVP, read with its schema, or why it cannot be in a few words: where it fails, never the
 * value itself (it was written by another version, by hand, or half-written by a crash).
 */
export function readKeptRecord<T>(value: string | null, schema: z.ZodMiniType<T, unknown>): KeptRead<T> {
  if (value === null) return { ok: false, problem: 'no value' };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, record: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the record';
  return { ok: false, problem: `${where}: ${issue?.message ?? 'invalid'}`.slice(0, 160) };
}

/** Moves a kept value that cannot be read to `to`: it is reported once, and stays there for an owner to look at. */
export function setAside(store: KeyValueStore, key: string, to: string): void {
  const value = store.get(key);
  if (value !== null) store.set(to, value);
  store.delete(key);
}

/** Where one kind of kept record lives in KVP, and where one that cannot be read is moved. */
export interface KeptPlace {
  prefix: string;
  asidePrefix: string;
}

/** A kept value that could not be read: moved from `key` to `movedTo`, and why. */
export interface SetAsideRecord {
  key: string;
  movedTo: string;
  problem: string;
}

/** Why a record that reads is still not the one its key holds (it names another key), else undefined. */
export type KeptCheck<T> = (record: T, key: string) => string | undefined;

/**
 * The record at `key` (under `place.prefix`), read with `schema` and `check`; one that does not read is moved to
 * `place.asidePrefix` under the same name, so it is reported once and never read again.
 */
export function takeKeptRecord<T>(
  store: KeyValueStore,
  place: KeptPlace,
  key: string,
  schema: z.ZodMiniType<T, unknown>,
  check: KeptCheck<T> = () => undefined,
): { ok: true; record: T } | ({ ok: false } & SetAsideRecord) {
  const read = readKeptRecord(store.get(key), schema);
  const problem = read.ok ? check(read.record, key) : read.problem;
  if (read.ok && problem === undefined) return read;
  const movedTo = `${place.asidePrefix}${key.slice(place.prefix.length)}`;
  setAside(store, key, movedTo);
  return { ok: false, key, movedTo, problem: problem as string };
}

/** Every record under `place.prefix`, in key order; the ones that do not read are set aside on the way. */
export function takeKeptRecords<T>(
  store: KeyValueStore,
  place: KeptPlace,
  schema: z.ZodMiniType<T, unknown>,
  check?: KeptCheck<T>,
): { records: T[]; setAside: SetAsideRecord[] } {
  const taken: { records: T[]; setAside: SetAsideRecord[] } = { records: [], setAside: [] };
  for (const key of store.keys(place.prefix).sort()) {
    const one = takeKeptRecord(store, place, key, schema, check);
    if (one.ok) taken.records.push(one.record);
    else taken.setAside.push({ key: one.key, movedTo: one.movedTo, problem: one.problem });
  }
  return taken;
}
