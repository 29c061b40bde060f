import { DutyOffBodySchema, DutyOnBodySchema } from '../../shared/contract/index.js';
import { panelPlayerName } from '../../shared/contract/player-name.js';
import * as z from '../../shared/zod-mini.js';
import type { KeyValueStore, Logger } from '../kernel/index.js';
import { takeKeptRecords } from '../kernel/index.js';
import type { OutboxRecord } from './duty-call.js';

const KEY_PREFIX = 'outbox:';
const SEQUENCE_KEY = 'outbox-sequence';
/** Where a kept record that is no duty call is set aside, under its old key's number, for an owner to look at. */
const REJECTED_PREFIX = 'outbox-rejected:';

/**
 * The highest id a duty call may have: what the 12 digits of a record's key hold. No server makes a trillion duty
 * calls, so a larger number in KVP was not written by the bridge, and every id stays far inside the safe integers.
 */
const MAX_OUTBOX_ID = 999_999_999_999;

const recordKey = (id: number) => `${KEY_PREFIX}${String(id).padStart(12, '0')}`;

/**
 * A kept record is checked with the contract's own duty bodies: what the panel would refuse to read is not sent.
 * A name an older version kept is made one the contract accepts rather than costing the record.
 */
/** A call's fence in the community (duty-call.ts): a shift's claim (and a lapsed server's), or none at all. */
const Name = z.string().check(z.minLength(1), z.maxLength(64));
const FenceSchema = z.optional(
  z.union([
    z.object({ shift: Name, server: z.optional(Name) }),
    z.object({ unclaimed: z.literal(true), server: z.optional(Name) }),
  ]),
);

const OutboxRecordSchema: z.ZodMiniType<OutboxRecord, unknown> = z.object({
  id: z.int().check(z.gte(1), z.lte(MAX_OUTBOX_ID)),
  call: z.discriminatedUnion('action', [
    z.object({
      action: z.literal('on'),
      body: z.extend(DutyOnBodySchema, { playerName: z.optional(z.pipe(z.unknown(), z.transform(panelPlayerName))) }),
      fence: FenceSchema,
    }),
    z.object({ action: z.literal('off'), body: DutyOffBodySchema, fence: FenceSchema }),
  ]),
  createdAt: z.number(),
  appliedInGame: z.optional(z.literal(true)),
});

/**
 * The outbox's duty calls in resource KVP, one record per call under its id (`outbox:<id>`), and the last id given
 * (`outbox-sequence`): a call is written before it is sent and deleted once the panel has taken or refused it, so a
 * restart finds every call still on its way.
 */
export class OutboxStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** A new call: its id becomes the last one given. */
  add(record: OutboxRecord): void {
    this.store.set(SEQUENCE_KEY, String(record.id));
    this.rewrite(record);
  }

  /** A kept call that changed (an `on` the game applied after all). */
  rewrite(record: OutboxRecord): void {
    this.store.set(recordKey(record.id), JSON.stringify(record));
  }

  remove(id: number): void {
    this.store.delete(recordKey(id));
  }

  /**
   * The duty calls a previous run kept, oldest first. A value that is no duty call (damaged, written by another
   * version or by hand) is moved to `outbox-rejected:` and told once with its key, never its content; it holds up
   * none of the others.
   */
  kept(): OutboxRecord[] {
    // Its key is where a delivery deletes it: under any other key it would be sent again at every start.
    const { records, setAside } = takeKeptRecords(
      this.store,
      { prefix: KEY_PREFIX, asidePrefix: REJECTED_PREFIX },
      OutboxRecordSchema,
      (record, key) => (recordKey(record.id) === key ? undefined : `it says it is record ${record.id}`),
    );
    for (const { key, movedTo, problem } of setAside) {
      this.logger.warn(
        `the kept duty call ${key} in KVP is not one the bridge can send (${problem}); it is set aside as ${movedTo} and the other kept calls are sent`,
      );
    }
    return records.sort((a, b) => a.id - b.id);
  }

  /** The highest id among the records kept, read from their keys alone (0 when none). */
  private highestKeptId(): number {
    let highest = 0;
    for (const key of this.store.keys(KEY_PREFIX)) {
      const id = Number(key.slice(KEY_PREFIX.length));
      if (Number.isSafeInteger(id) && id >= 1 && id <= MAX_OUTBOX_ID) highest = Math.max(highest, id);
    }
    return highest;
  }

  /**
   * The last id the outbox gave. A value it cannot count on from (not a number, not a safe integer, past
   * MAX_OUTBOX_ID, or lower than a kept record's id, so new calls would take kept calls' keys) is rebuilt from the
   * kept records' ids and told in one line.
   */
  sequence(): number {
    const highestKept = this.highestKeptId();
    const value = this.store.get(SEQUENCE_KEY);
    if (value === null) return highestKept;
    const sequence = Number(value);
    const countable =
      value.trim() !== '' && Number.isSafeInteger(sequence) && sequence >= 0 && sequence <= MAX_OUTBOX_ID;
    if (countable && sequence >= highestKept) return sequence;
    const problem = countable
      ? `is ${sequence}, lower than the kept duty call ${highestKept}`
      : `is not a number the bridge can count on (0 to ${MAX_OUTBOX_ID})`;
    this.logger.warn(`${SEQUENCE_KEY} in KVP ${problem}; new duty calls are numbered after the kept ones`);
    return highestKept;
  }
}
