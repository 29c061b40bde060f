import { z } from 'zod';
import { ChatIdSchema } from './chat-id';

export const DUTY_ACTIONS = ['on', 'off'] as const;

export const DutyActionSchema = z
  .enum(DUTY_ACTIONS)
  .meta({ id: 'DutyAction', description: 'Any other value answers 400 `invalid_action`.' });

export type DutyAction = z.infer<typeof DutyActionSchema>;

export const DutyParamsSchema = z.object({ action: DutyActionSchema });

const positiveId = z.int().min(1);

/**
 * Going on duty names the department and the rank the bridge took from the profile it fetched; the panel checks
 * both against the user's roles. Unknown keys are ignored so an older panel accepts a newer bridge.
 */
export const DutyOnBodySchema = z
  .object({
    chatId: ChatIdSchema,
    departmentId: positiveId,
    rankId: positiveId,
    serverId: positiveId.optional().meta({ description: "The player's server id, for the panel's records." }),
    playerName: z.string().min(1).max(255).optional(),
  })
  .meta({ id: 'DutyOnBody' });

/**
 * Going off duty may name the department it ends: when the user is on duty elsewhere (a late retry after a
 * department switch), that current session is left alone.
 */
export const DutyOffBodySchema = z
  .object({ chatId: ChatIdSchema, departmentId: positiveId.optional() })
  .meta({ id: 'DutyOffBody' });

export const DutyStateSchema = z
  .object({
    chatId: ChatIdSchema,
    onDuty: z.boolean(),
    departmentId: positiveId.nullable(),
    rankId: positiveId.nullable(),
    since: z.iso.datetime().nullable().meta({ description: 'Start of the current duty session (ISO 8601, UTC).' }),
  })
  .meta({ id: 'DutyState' });

export const DutyResponseSchema = z
  .object({
    ok: z.literal(true),
    duty: DutyStateSchema,
    changed: z.boolean().meta({
      description: 'false when the call repeated a state already in effect; both actions are idempotent.',
    }),
  })
  .meta({ id: 'DutyResponse' });

export type DutyOnBody = z.infer<typeof DutyOnBodySchema>;
export type DutyOffBody = z.infer<typeof DutyOffBodySchema>;
export type DutyState = z.infer<typeof DutyStateSchema>;
export type DutyResponse = z.infer<typeof DutyResponseSchema>;
