import type * as z from '../../shared/zod-mini.js';
import type { KeyValueStore } from './key-value-store.js';

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
