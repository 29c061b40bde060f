import { DutyOffBodySchema, DutyOnBodySchema } from '../../shared/contract/index.js';
import { panelPlayerName } from '../../shared/contract/player-name.js';
import * as z from '../../shared/zod-mini.js';
import type { Logger } from '../log/logger.js';
import { takeKeptRecords } from '../storage/kept-record.js';
import type { KeyValueStore } from '../storage/key-value-store.js';
import type { OutboxRecord } from './duty-call.js';

export const KEY_PREFIX = 'outbox:';
export const SEQUENCE_KEY = 'outbox-sequence';
/** Where a kept record that is no duty call is set aside, under its old key's number, for an owner to look at. */
export const REJECTED_PREFIX = 'outbox-rejected:';

export const recordKey = (id: number) => `${KEY_PREFIX}${String(id).padStart(12, '0')}`;

/**
 * A kept record is checked with the contract's own duty bodies: what the panel would refuse to read is not sent.
 * A name an older version kept is made one the contract accepts rather than costing the record.
 */
const OutboxRecordSchema: z.ZodMiniType<OutboxRecord, unknown> = z.object({
  id: z.int().check(z.gte(1)),
  call: z.discriminatedUnion('action', [
    z.object({
      action: z.literal('on'),
      body: z.extend(DutyOnBodySchema, { playerName: z.optional(z.pipe(z.unknown(), z.transform(panelPlayerName))) }),
    }),
    z.object({ action: z.literal('off'), body: DutyOffBodySchema }),
  ]),
  createdAt: z.number(),
  appliedInGame: z.optional(z.literal(true)),
});

/**
 * The duty calls a previous run kept in KVP, oldest first. A value that is no duty call (damaged, written by
 * another version or by hand) is moved to `outbox-rejected:` and told once with its key, never its content; it
 * holds up none of the others.
 */
export function readKeptRecords(store: KeyValueStore, logger: Pick<Logger, 'warn'>): OutboxRecord[] {
  // Its key is where a delivery deletes it: under any other key it would be sent again at every start.
  const { records, setAside } = takeKeptRecords(
    store,
    { prefix: KEY_PREFIX, asidePrefix: REJECTED_PREFIX },
    OutboxRecordSchema,
    (record, key) => (recordKey(record.id) === key ? undefined : `it says it is record ${record.id}`),
  );
  for (const { key, movedTo, problem } of setAside) {
    logger.warn(
      `the kept duty call ${key} in KVP is not one the bridge can send (${problem}); it is set aside as ${movedTo} and the other kept calls are sent`,
    );
  }
  return records.sort((a, b) => a.id - b.id);
}

/**
 * The last id the outbox gave, from KVP. A value that is not one (damaged, or set by hand) is told once and counted
 * from 0: the kept records' own ids then keep new ones apart from theirs.
 */
export function readSequence(store: KeyValueStore, logger: Pick<Logger, 'warn'>): number {
  const value = store.get(SEQUENCE_KEY);
  if (value === null) return 0;
  const sequence = Number(value);
  if (value.trim() !== '' && Number.isSafeInteger(sequence) && sequence >= 0) return sequence;
  logger.warn(`${SEQUENCE_KEY} in KVP is not a number; new duty calls are numbered after the kept ones`);
  return 0;
}
