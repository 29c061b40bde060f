import { withMeta } from '../with-meta.js';
import * as z from '../zod-mini.js';
import { ChatIdSchema } from './chat-id';
import { positiveIntRead } from './integer-read';

export const DUTY_ACTIONS = ['on', 'off'] as const;

export const DutyActionSchema = withMeta(z.enum(DUTY_ACTIONS), {
  id: 'DutyAction',
  description: 'Any other value answers 400 `invalid_action`.',
});

export type DutyAction = z.infer<typeof DutyActionSchema>;

export const DutyParamsSchema = z.object({ action: DutyActionSchema });

const positiveId = z.int().check(z.gte(1));

// Every request-body field carries a description that reads after "<field> is required: ", since the mock panel's
// 400 messages are made of it (mock-panel/http/field-error.ts): one text for the OpenAPI document and the refusal.

/**
 * Going on duty names the department and the rank the bridge took from the profile it fetched; the panel checks
 * both against the user's roles. Unknown keys are ignored so an older panel accepts a newer bridge.
 */
export const DutyOnBodySchema = withMeta(
  z.object({
    chatId: ChatIdSchema,
    departmentId: withMeta(positiveId, { description: 'The department to go on duty in, a positive integer.' }),
    rankId: withMeta(positiveId, {
      description: "The player's rank in that department as their profile has it, a positive integer.",
    }),
    serverId: withMeta(z.optional(positiveId), {
      description: "The player's server id, a positive integer; for the panel's records.",
    }),
    playerName: withMeta(z.optional(z.string().check(z.minLength(1), z.maxLength(255))), {
      description: "The player's name, 1 to 255 characters; for the panel's records.",
    }),
  }),
  { id: 'DutyOnBody' },
);

/**
 * Going off duty may name the department it ends: when the user is on duty elsewhere (a late retry after a
 * department switch), that current session is left alone.
 */
export const DutyOffBodySchema = withMeta(
  z.object({
    chatId: ChatIdSchema,
    departmentId: withMeta(z.optional(positiveId), {
      description: 'The department whose session this call ends, a positive integer; a session elsewhere stays.',
    }),
  }),
  { id: 'DutyOffBody' },
);

// ---- What the bridge reads. The spec shows no duty answer: `ok: true` on a 2xx is success. A `duty` state, when
// the panel sends one, is compared with what was asked; fields of it the bridge cannot read count as not sent. ----

const ASKED = 'Compared by the bridge with the call when present: another department or rank fails the call.';

/** Read when present and readable, else counted as not sent. */
const readIfSent = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

export const PanelDutyStateReadSchema = z.object({
  onDuty: withMeta(readIfSent(z.boolean()), { description: ASKED }),
  departmentId: withMeta(readIfSent(z.nullable(positiveIntRead())), { description: ASKED }),
  rankId: withMeta(readIfSent(z.nullable(positiveIntRead())), { description: ASKED }),
});

export const DutyReadSchema = z.object({ ok: z.literal(true), duty: readIfSent(PanelDutyStateReadSchema) });

// ---- What the mock panel sends: the read schemas extended with the rest of its duty state. ----

export const PanelDutyStateSchema = withMeta(
  z.extend(PanelDutyStateReadSchema, {
    chatId: ChatIdSchema,
    onDuty: withMeta(z.boolean(), { description: ASKED }),
    departmentId: withMeta(z.nullable(positiveId), { description: ASKED }),
    rankId: withMeta(z.nullable(positiveId), { description: ASKED }),
    since: withMeta(z.nullable(z.iso.datetime()), {
      description: 'Start of the current duty session (ISO 8601, UTC).',
    }),
  }),
  { id: 'PanelDutyState' },
);

export const DutyResponseSchema = withMeta(
  z.extend(DutyReadSchema, {
    duty: PanelDutyStateSchema,
    changed: withMeta(z.boolean(), {
      description: 'false when the call repeated a state already in effect; both actions are idempotent.',
    }),
  }),
  {
    id: 'DutyResponse',
    description:
      'The bridge requires only `ok: true` on a 2xx. When `duty` is present, an `on` answered with another ' +
      'department or rank, or as off duty, and an `off` answered as still on duty in the department it ended, fail ' +
      'the call; every other key is ignored.',
  },
);

export type DutyOnBody = z.infer<typeof DutyOnBodySchema>;
export type DutyOffBody = z.infer<typeof DutyOffBodySchema>;
export type PanelDutyState = z.infer<typeof PanelDutyStateSchema>;
/** A duty answer as the bridge reads it. */
export type DutyAnswer = z.output<typeof DutyReadSchema>;
export type DutyResponse = z.infer<typeof DutyResponseSchema>;
