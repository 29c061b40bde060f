import { z } from 'zod';
import { ChatIdSchema, DepartmentDataSchema } from '../../shared/contract';

/** Chat-platform snowflake (guild and role ids): 17 to 20 ASCII digits. */
export const SnowflakeSchema = z.string().regex(/^[0-9]{17,20}$/, 'expected a snowflake id of 17 to 20 ASCII digits');

export const MockUserSchema = z.object({
  chatId: ChatIdSchema,
  name: z.string().min(1),
  /** Role ids the user holds, per guild id. Only the panel's guild (`CHAT_GUILD_ID`) grants anything. */
  roles: z.record(SnowflakeSchema, z.array(SnowflakeSchema)),
});

const MockRankSchema = z.object({ id: z.int().min(1), name: z.string().min(1), roleId: SnowflakeSchema });

/** A department's slug in the mock: lower-case letters, digits and underscores, so it can name a job. */
export const MockSlugSchema = z
  .string()
  .regex(/^[a-z0-9_]+$/, 'a slug is lower-case letters, digits and underscores (a job name)');

/** A department without its id: what the data file gives for each, and what `PUT /__mock/departments/:id` takes. */
export const MockDepartmentFieldsSchema = z.object({
  slug: MockSlugSchema,
  name: z.string().min(1),
  /** Holding any of these roles in the guild makes the user a member. */
  memberRoles: z.array(SnowflakeSchema).min(1),
  /**
   * Lowest rank first. A member's rank is the last listed rank whose role they hold; a member holding none of
   * the rank roles gets the first (entry) rank, so every member can go on duty.
   */
  ranks: z.array(MockRankSchema).min(1),
  /** Optional, as in the contract: a department without it is answered without it, and the bridge sends `{}`. */
  data: z.optional(DepartmentDataSchema),
});

const MockDepartmentSchema = MockDepartmentFieldsSchema.extend({ id: z.int().min(1) });

function duplicatesOf(values: readonly (string | number)[]): (string | number)[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

type IssueSink = { addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void };

/** One issue per value listed twice, at `path`. */
function reportDuplicates(
  context: IssueSink,
  path: (string | number)[],
  what: string,
  values: readonly (string | number)[],
): void {
  for (const duplicate of new Set(duplicatesOf(values))) {
    context.addIssue({ code: 'custom', path, message: `duplicate ${what} ${duplicate}` });
  }
}

/** Within a department, each rank has its own id and its own role. */
export function reportRankDuplicates(
  ranks: readonly { id: number; roleId: string }[],
  context: IssueSink,
  path: (string | number)[],
): void {
  reportDuplicates(
    context,
    path,
    'rank id',
    ranks.map((rank) => rank.id),
  );
  reportDuplicates(
    context,
    path,
    'rank roleId',
    ranks.map((rank) => rank.roleId),
  );
}

/** The mock panel's seed: the guild, its users with their roles, and the departments with their rank roles. */
export const MockPanelDataSchema = z
  .object({
    guildId: SnowflakeSchema,
    users: z.array(MockUserSchema),
    departments: z.array(MockDepartmentSchema),
  })
  .superRefine((data, context) => {
    reportDuplicates(
      context,
      ['users'],
      'chatId',
      data.users.map((user) => user.chatId),
    );
    reportDuplicates(
      context,
      ['departments'],
      'department id',
      data.departments.map((department) => department.id),
    );
    reportDuplicates(
      context,
      ['departments'],
      'slug',
      data.departments.map((department) => department.slug),
    );
    data.departments.forEach((department, index) => {
      reportRankDuplicates(department.ranks, context, ['departments', index, 'ranks']);
    });
  });

export type MockPanelData = z.infer<typeof MockPanelDataSchema>;
export type MockUser = z.infer<typeof MockUserSchema>;
export type MockDepartment = z.infer<typeof MockDepartmentSchema>;
