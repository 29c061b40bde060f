import * as z from '../../../shared/zod-mini.js';
import type { KeyValueStore } from '../../kernel/index.js';
import { type KeptPlace, takeKeptRecord } from '../../kernel/index.js';
import type { FrameworkAdapter, FrameworkId, JobAssignment } from './job-framework.js';

// Unreadable records move to the aside prefix: kept for whoever wants to look, never read again.
const PLACE: KeptPlace = { prefix: 'job-given:', asidePrefix: 'job-given-set-aside:' };

/** What the bridge gave a character on duty, and what they held before it did. */
export interface JobGiven<Holdings = unknown> {
  framework: FrameworkId;
  /** The framework's own id of the character: ox_core charId, Qbox/QBCore citizenid, ESX identifier. */
  character: string;
  given: JobAssignment;
  before: Holdings;
  /** The player's server id in the run that wrote it, for the log line. */
  serverId: number;
  /** When it was written (wall clock, for the record only). */
  since: number;
}

const AssignmentSchema = z.object({ job: z.string(), grade: z.number().check(z.int()) });

const RecordSchema = z.object({
  framework: z.enum(['esx', 'qbcore', 'qbox', 'ox_core']),
  character: z.string().check(z.minLength(1)),
  given: AssignmentSchema,
  before: z.unknown(),
  serverId: z.number().check(z.int()),
  since: z.number(),
});

export type LedgerRead<Holdings> =
  | { found: false }
  | { found: true; record: JobGiven<Holdings> }
  | { found: false; problem: string; movedTo: string };

const keyOf = (framework: FrameworkId, character: string) => `${PLACE.prefix}${framework}:${character}`;

/**
 * One KVP record per character while the bridge's job is on them, written (synced) before the framework is called
 * and removed once the player has their own back. What survives a crash, or a drop the framework handled first, is
 * given back the next time the framework loads that character.
 */
export class JobLedger {
  constructor(private readonly store: KeyValueStore) {}

  keep(record: JobGiven): void {
    this.store.set(keyOf(record.framework, record.character), JSON.stringify(record));
  }

  drop(framework: FrameworkId, character: string): void {
    this.store.delete(keyOf(framework, character));
  }

  /** Whether the character has a record: most characters that load have none, and cost no framework call. */
  has(framework: FrameworkId, character: string): boolean {
    return this.store.get(keyOf(framework, character)) !== null;
  }

  /** Whether any record is kept: a start with none needs to look at nobody. */
  isEmpty(): boolean {
    return this.store.keys(PLACE.prefix).length === 0;
  }

  /** The character's record, checked with the adapter's own schema; one that does not read is set aside. */
  find<Holdings>(adapter: FrameworkAdapter<Holdings>, character: string): LedgerRead<Holdings> {
    const key = keyOf(adapter.id, character);
    if (this.store.get(key) === null) return { found: false };
    // `before` is read as what this framework holds: a record another version wrote differently is set aside.
    const schema = z.extend(RecordSchema, { before: adapter.holdingsSchema });
    const taken = takeKeptRecord(this.store, PLACE, key, schema, (record) =>
      keyOf(record.framework, record.character) === key ? undefined : 'it names another character',
    );
    if (!taken.ok) return { found: false, problem: taken.problem, movedTo: taken.movedTo };
    return { found: true, record: taken.record };
  }
}
