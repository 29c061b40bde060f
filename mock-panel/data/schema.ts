import { z } from 'zod';
import { ChatIdSchema, DepartmentDataSchema } from '../../shared/contract';

/** Chat-platform snowflake (guild and role ids): 17 to 20 ASCII digits. */
const SnowflakeSchema = z.string().regex(/^[0-9]{17,20}$/, 'expected a snowflake id of 17 to 20 ASCII digits');

const MockUserSchema = z.object({
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

const MockDepartmentSchema = z.object({
  id: z.int().min(1),
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

function duplicatesOf(values: readonly (string | number)[]): (string | number)[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

/** The mock panel's seed: the guild, its users with their roles, and the departments with their rank roles. */
export const MockPanelDataSchema = z
  .object({
    guildId: SnowflakeSchema,
    users: z.array(MockUserSchema),
    departments: z.array(MockDepartmentSchema),
  })
  .superRefine((data, context) => {
    const report = (path: (string | number)[], what: string, values: readonly (string | number)[]) => {
      for (const duplicate of new Set(duplicatesOf(values))) {
        context.addIssue({ code: 'custom', path, message: `duplicate ${what} ${duplicate}` });
      }
    };
    report(
      ['users'],
      'chatId',
      data.users.map((user) => user.chatId),
    );
    report(
      ['departments'],
      'department id',
      data.departments.map((department) => department.id),
    );
    report(
      ['departments'],
      'slug',
      data.departments.map((department) => department.slug),
    );
    data.departments.forEach((department, index) => {
      report(
        ['departments', index, 'ranks'],
        'rank id',
        department.ranks.map((rank) => rank.id),
      );
      report(
        ['departments', index, 'ranks'],
        'rank roleId',
        department.ranks.map((rank) => rank.roleId),
      );
    });
  });

export type MockPanelData = z.infer<typeof MockPanelDataSchema>;
export type MockUser = z.infer<typeof MockUserSchema>;
export type MockDepartment = z.infer<typeof MockDepartmentSchema>;
