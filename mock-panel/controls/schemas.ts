import { z } from 'zod';
import { ChatIdSchema, DepartmentEntrySchema, ErrorCodeSchema, PanelUserSchema } from '../../shared/contract';
import { MockDepartmentFieldsSchema, MockSlugSchema, reportRankDuplicates } from '../data/schema';

// Bodies and answers of the tester controls under /__mock. Not part of the /api/leo contract.

const rate = z.number().min(0).max(1).default(1).meta({ description: 'Share of requests affected, 0 to 1.' });
const seed = z.int().default(1).meta({ description: 'Seed of the random choice, so a run can be repeated.' });

export const RolesBodySchema = z.object({
  roles: z.array(z.string().regex(/^[0-9]{17,20}$/, 'a role id is 17 to 20 ASCII digits')),
  guildId: z
    .string()
    .regex(/^[0-9]{17,20}$/)
    .optional()
    .meta({ description: "Guild whose roles are replaced; the panel's guild when absent." }),
});

export const PutUserBodySchema = z.object({
  name: z.string().min(1).max(64).meta({ description: 'The name the panel knows the user by.' }),
  roles: RolesBodySchema.shape.roles.default([]).meta({ description: 'Role ids in that guild; none by default.' }),
  guildId: RolesBodySchema.shape.guildId,
});

export const PutDepartmentBodySchema = MockDepartmentFieldsSchema.superRefine((department, context) =>
  reportRankDuplicates(department.ranks, context, ['ranks']),
);

export const RenameDepartmentBodySchema = z
  .object({
    slug: MockSlugSchema.optional(),
    name: z.string().min(1).optional(),
  })
  .refine((body) => body.slug !== undefined || body.name !== undefined, 'give a new slug, a new name, or both');

export const LatencyBodySchema = z.object({ ms: z.int().min(0).max(600_000) });

export const ErrorsBodySchema = z.object({ error: ErrorCodeSchema, rate, seed });

export const OUTAGE_MODES = ['reset', 'hang', 'proxy_404'] as const;
export const OutageBodySchema = z.object({ mode: z.enum(OUTAGE_MODES), rate, seed });

export const MALFORMED_MODES = ['invalid_json', 'wrong_shape', 'html'] as const;
export const MalformedBodySchema = z.object({ mode: z.enum(MALFORMED_MODES), rate, seed });

export const FAULT_KINDS = ['latency', 'errors', 'outage', 'malformed'] as const;
export const FaultKindSchema = z.enum(FAULT_KINDS);

export type RolesBody = z.input<typeof RolesBodySchema>;
export type ErrorsFault = z.output<typeof ErrorsBodySchema>;
export type OutageFault = z.output<typeof OutageBodySchema>;
export type MalformedFault = z.output<typeof MalformedBodySchema>;
export type OutageMode = OutageFault['mode'];
export type MalformedMode = MalformedFault['mode'];
export type FaultKind = z.infer<typeof FaultKindSchema>;

export const FaultSettingsSchema = z.object({
  latencyMs: z.int(),
  errors: ErrorsBodySchema.nullable(),
  outage: OutageBodySchema.nullable(),
  malformed: MalformedBodySchema.nullable(),
});
export type FaultSettings = z.infer<typeof FaultSettingsSchema>;

export const ControlErrorBodySchema = z.object({
  ok: z.literal(false),
  error: z.enum([
    'unauthorized',
    'invalid_control',
    'invalid_json',
    'malformed_chat_id',
    'user_not_found',
    'department_not_found',
    'not_found',
    'method_not_allowed',
  ]),
  message: z.string(),
  field: z.string().optional(),
});

export const RolesResponseSchema = z.object({
  ok: z.literal(true),
  user: PanelUserSchema,
  roles: z.record(z.string(), z.array(z.string())),
  departments: z.array(DepartmentEntrySchema),
});

export const PutUserResponseSchema = RolesResponseSchema.extend({
  created: z.boolean().meta({ description: 'True when the user is new, false when an existing one was replaced.' }),
});

export const FaultsResponseSchema = z.object({
  ok: z.literal(true),
  faults: FaultSettingsSchema,
  hanging: z.int().meta({ description: 'Requests a `hang` outage is holding right now.' }),
});

export const DutySessionSchema = z.object({
  id: z.int(),
  chatId: ChatIdSchema,
  departmentId: z.int(),
  rankId: z.int(),
  serverId: z.int().nullable(),
  playerName: z.string().nullable(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  durationMs: z.int().nullable(),
  endedBy: z.enum(['off', 'switch', 'deleted']).nullable(),
  reportedReason: z
    .string()
    .optional()
    .meta({ description: 'Why the game server ended the session, when a host that sees it reported it.' }),
});
export const SessionsResponseSchema = z.object({ ok: z.literal(true), sessions: z.array(DutySessionSchema) });

export const RequestLogEntrySchema = z.object({
  time: z.iso.datetime(),
  method: z.string(),
  path: z.string(),
  status: z.int().nullable(),
  latencyMs: z.number(),
  clientIp: z.string(),
  faults: z.array(z.enum(['latency', 'reset', 'hang', 'proxy_404', 'error', 'malformed'])),
  startupCheck: z
    .literal(true)
    .optional()
    .meta({ description: "Present on the bridge's start-up check, whose expected answer is a 404." }),
});
export const RequestLogResponseSchema = z.object({ ok: z.literal(true), requests: z.array(RequestLogEntrySchema) });

export const DeleteUserResponseSchema = z.object({
  ok: z.literal(true),
  user: PanelUserSchema,
  endedSession: DutySessionSchema.nullable().meta({
    description: 'The duty session the deletion ended, if one was open.',
  }),
});

export const RenameDepartmentResponseSchema = z.object({
  ok: z.literal(true),
  department: z.object({ id: z.int(), slug: z.string(), name: z.string() }),
});

export const PutDepartmentResponseSchema = RenameDepartmentResponseSchema.extend({
  created: z.boolean().meta({ description: 'True when the department is new, false when one was replaced.' }),
});

export const OkResponseSchema = z.object({ ok: z.literal(true) });
