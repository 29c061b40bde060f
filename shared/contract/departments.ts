import { withMeta } from '../with-meta.js';
import * as z from '../zod-mini.js';
import { ChatIdSchema } from './chat-id';
import type { MockDepartmentData, Rank } from './department-types';
import { positiveIntRead } from './integer-read';

/** A chatId that fails this answers 404 `malformed_chat_id`, the same status as an unknown user. */
export const DepartmentsParamsSchema = z.object({ chatId: ChatIdSchema });

// The plain types in department-types.ts are what types/index.d.ts ships; each schema below is checked against its
// type, so the two cannot drift.
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const text = () => z.string().check(z.minLength(1));
const count = (min: number) => z.int().check(z.gte(min));

const VehicleSchema = withMeta(
  z.object({
    model: withMeta(text(), { description: 'Spawn name of the vehicle model.', example: 'police3' }),
    label: withMeta(text(), { description: 'Name shown to the player.', example: 'Police Interceptor' }),
  }),
  { id: 'DepartmentVehicle' },
);

const ClothingPieceSchema = z.object({
  slot: withMeta(count(0), { description: 'GTA component id (clothing) or prop anchor id (props).' }),
  drawable: count(0),
  texture: count(0),
});

const UniformSchema = withMeta(
  z.object({
    name: withMeta(text(), { example: 'Class B' }),
    pedModel: withMeta(z.optional(z.enum(['mp_m_freemode_01', 'mp_f_freemode_01'])), {
      description: 'Freemode ped the uniform is made for; absent when it fits both.',
    }),
    components: z.array(ClothingPieceSchema),
    props: z.array(ClothingPieceSchema),
  }),
  { id: 'DepartmentUniform' },
);

const EquipmentSchema = withMeta(
  z.object({
    item: withMeta(text(), { description: 'Weapon or item name.', example: 'WEAPON_STUNGUN' }),
    label: text(),
    count: count(1),
  }),
  { id: 'DepartmentEquipment' },
);

/**
 * Department data as the mock panel sends it. The spec does not show this shape, so the bridge does not read it:
 * whatever a panel sends as `data` reaches `bridge:client:deptData` as it was sent (see DepartmentSchema).
 */
export const DepartmentDataSchema = withMeta(
  z.looseObject({
    callsignPrefix: withMeta(z.optional(z.string()), { example: 'LSPD' }),
    vehicles: z.array(VehicleSchema),
    uniforms: z.array(UniformSchema),
    equipment: z.array(EquipmentSchema),
  }),
  {
    id: 'DepartmentData',
    description:
      'Department data for `bridge:client:deptData`, as the mock panel sends it. Not read by the bridge: any JSON ' +
      'value a panel sends here is passed to the game client as it was sent (`{}` when absent).',
  },
);

// Compiles only while the plain type and the mock panel's schema say the same, field for field.
true satisfies Agree<MockDepartmentData, z.infer<typeof DepartmentDataSchema>>;

// ---- What the bridge reads: the tolerant reader. The spec promises `ok` in every body and implies the department
// and rank ids; the bridge checks those and the two strings the game shows, and nothing else. Ids are read as
// integers or decimal text; what the contract publishes (and the mock panel sends) is an integer. ----

const REQUIRED = 'Required by the bridge.';

const departmentId = withMeta(count(1), { description: REQUIRED, example: 1 });
const rankId = withMeta(count(1), { description: REQUIRED, example: 2 });

/** A rank name is shown to players; a panel that sends none (or no usable one) gets `rank <id>` in its place. */
export const rankNameOr = (id: number, name: unknown): string =>
  typeof name === 'string' && name.trim() !== '' ? name : `rank ${id}`;

/** A rank as the bridge reads it: the id is required, the name is filled in when missing. */
export const RankReadSchema = z.pipe(
  z.object({ id: positiveIntRead(), name: z.optional(z.unknown()) }),
  z.transform(({ id, name }): Rank => ({ id, name: rankNameOr(id, name) })),
);

/**
 * A department as the bridge reads it and keeps it: `id`, `slug`, `name` and `rank.id` are checked, other keys of
 * the department are left out, and `data` is kept exactly as the panel sent it.
 */
export const DepartmentSchema = z.object({
  id: positiveIntRead(),
  slug: withMeta(text(), {
    description: `${REQUIRED} Job name when a job framework integration is on.`,
    example: 'lspd',
  }),
  name: withMeta(text(), { description: `${REQUIRED} Shown to players.`, example: 'Los Santos Police Department' }),
  rank: RankReadSchema,
  data: z.pipe(
    z.optional(z.unknown()),
    z.transform((data): unknown => (data === undefined ? {} : data)),
  ),
});

/** A department of the answer that does not read: where it was, what it said it was, and why it does not read. */
export interface LeftOutDepartment {
  index: number;
  /** The department's `id` and `slug` as the panel sent them, when it sent them. */
  id?: unknown;
  slug?: unknown;
  /** The first problem, as `<path>: <message>` (e.g. `slug: Invalid input: expected string, received undefined`). */
  problem: string;
}

const answerOk = z.literal(true);

const sentAs = (entry: unknown, key: 'id' | 'slug'): { id?: unknown; slug?: unknown } =>
  typeof entry === 'object' && entry !== null && key in entry ? { [key]: (entry as Record<string, unknown>)[key] } : {};

/** Each department read on its own: one that does not read is left out, and said why, without costing the others. */
function readDepartments(entries: readonly unknown[]): { departments: Department[]; leftOut: LeftOutDepartment[] } {
  const departments: Department[] = [];
  const leftOut: LeftOutDepartment[] = [];
  for (const [index, entry] of entries.entries()) {
    const read = DepartmentSchema.safeParse(entry);
    if (read.success) {
      departments.push(read.data);
      continue;
    }
    const issue = read.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'department';
    leftOut.push({ index, ...sentAs(entry, 'id'), ...sentAs(entry, 'slug'), problem: `${where}: ${issue?.message}` });
  }
  return { departments, leftOut };
}

/**
 * The departments answer as the bridge reads it: `ok: true` and the departments it can read, with the ones it
 * cannot in `leftOut`; anything else is ignored.
 */
export const DepartmentsReadSchema = z.pipe(
  z.object({ ok: answerOk, departments: z.array(z.unknown()) }),
  z.transform(({ ok, departments }) => ({ ok, ...readDepartments(departments) })),
);

// ---- What the mock panel sends: the read schemas above, extended with the fields our panel adds. ----

export const RankSchema = withMeta(
  z.object({
    id: rankId,
    name: withMeta(text(), {
      description: 'Shown to players; a panel that sends none is shown as `rank <id>`.',
      example: 'Sergeant',
    }),
  }),
  { id: 'Rank', description: "The player's rank within a department." },
);

export const DepartmentEntrySchema = withMeta(
  z.extend(DepartmentSchema, { id: departmentId, rank: RankSchema, data: z.optional(DepartmentDataSchema) }),
  {
    id: 'Department',
  },
);

export const PanelUserSchema = withMeta(z.object({ chatId: ChatIdSchema, name: z.string() }), {
  id: 'PanelUser',
  description: 'Not read by the bridge.',
});

export const DepartmentsResponseSchema = withMeta(
  z.object({ ok: answerOk, departments: z.array(DepartmentEntrySchema), user: PanelUserSchema }),
  {
    id: 'DepartmentsResponse',
    description:
      "The user's departments from their roles in the configured guild; empty when they have none. The bridge " +
      'requires `ok: true` and, of each department, `id`, `slug`, `name` and `rank.id`; it ignores other keys, shows ' +
      'a missing rank name as `rank <id>`, and passes `data` to the game client as it was sent.',
  },
);

/** A department as the bridge keeps it. */
export type Department = z.output<typeof DepartmentSchema>;
// Compiles only while the reader's ids are the integers the rest of the bridge takes them for.
true satisfies Agree<Department['id'] | Department['rank']['id'], number>;
/** A department as the mock panel sends it. */
export type DepartmentEntry = z.infer<typeof DepartmentEntrySchema>;
export type PanelUser = z.infer<typeof PanelUserSchema>;
export type DepartmentsAnswer = z.output<typeof DepartmentsReadSchema>;
export type DepartmentsResponse = z.infer<typeof DepartmentsResponseSchema>;
