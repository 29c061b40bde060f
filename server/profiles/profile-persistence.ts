import { ChatIdSchema, DepartmentSchema } from '../../shared/contract/index.js';
import * as z from '../../shared/zod-mini.js';
import type { KeyValueStore } from '../kernel/index.js';
import type { ProfileEntry } from './profile-entry.js';

const KEY_PREFIX = 'profile:';

// What a previous run wrote (or another server of the community, in Redis) is checked like a panel answer, with the
// contract's department schema: a changed format or a damaged value is dropped.
export const PersistedProfileSchema = z.object({
  ttlMs: z.number().check(z.int(), z.positive()),
  entry: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('found'),
      chatId: ChatIdSchema,
      departments: z.array(DepartmentSchema),
      fetchedAt: z.number(),
    }),
    z.object({ kind: z.literal('not_registered'), chatId: ChatIdSchema, fetchedAt: z.number() }),
  ]),
});

export interface PersistedProfile {
  entry: ProfileEntry;
  ttlMs: number;
}

/**
 * Profiles in resource KVP, so the players who come back after a restart are known without asking the panel.
 * One key per chat id; the cache decides what is kept and for how long.
 */
export class ProfilePersistence {
  constructor(private readonly store: KeyValueStore) {}

  save(entry: ProfileEntry, ttlMs: number): void {
    this.store.set(`${KEY_PREFIX}${entry.chatId}`, JSON.stringify({ ttlMs, entry }));
  }

  delete(chatId: string): void {
    this.store.delete(`${KEY_PREFIX}${chatId}`);
  }

  /** Every readable profile; unreadable ones are deleted. */
  loadAll(): PersistedProfile[] {
    const profiles: PersistedProfile[] = [];
    for (const key of this.store.keys(KEY_PREFIX)) {
      const parsed = PersistedProfileSchema.safeParse(parseJson(this.store.get(key)));
      if (parsed.success && key === `${KEY_PREFIX}${parsed.data.entry.chatId}`) profiles.push(parsed.data);
      else this.store.delete(key);
    }
    return profiles;
  }
}

function parseJson(value: string | null): unknown {
  if (value === null) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
