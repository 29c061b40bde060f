import { z } from 'zod';
import { ChatIdSchema, DepartmentEntrySchema } from '../../shared/contract';
import { DutySessionSchema, FaultSettingsSchema, RequestLogEntrySchema } from '../controls/schemas';
import type { PanelStore } from '../store';

// What the dashboard page polls: the whole panel at a glance. Not part of the /api/leo contract.

const SHOWN = 100;

const RankRefSchema = z.object({ id: z.int(), name: z.string() });

export const DashboardSnapshotSchema = z.object({
  ok: z.literal(true),
  now: z.number(),
  guildId: z.string(),
  departments: z.array(
    z.object({
      id: z.int(),
      slug: z.string(),
      name: z.string(),
      memberRoles: z.array(z.string()),
      ranks: z.array(RankRefSchema.extend({ roleId: z.string() })),
    }),
  ),
  users: z.array(
    z.object({
      chatId: ChatIdSchema,
      name: z.string(),
      roles: z.array(z.string()).meta({ description: "Role ids in the panel's guild." }),
      departments: z.array(
        z.object(DepartmentEntrySchema.shape).pick({ id: true, slug: true, name: true, rank: true }),
      ),
    }),
  ),
  roster: z.array(
    z.object({
      chatId: ChatIdSchema,
      name: z.string(),
      departmentId: z.int(),
      departmentName: z.string(),
      rankId: z.int(),
      rankName: z.string(),
      since: z.iso.datetime(),
      serverId: z.int().nullable(),
      playerName: z.string().nullable(),
    }),
  ),
  sessions: z
    .array(DutySessionSchema.extend({ name: z.string(), departmentName: z.string(), rankName: z.string() }))
    .meta({ description: `Newest first, at most ${SHOWN}.` }),
  requests: z.array(RequestLogEntrySchema).meta({ description: `Newest first, at most ${SHOWN}.` }),
  rateLimit: z.object({
    limit: z.int(),
    windowMs: z.int(),
    windows: z.array(z.object({ key: z.string(), used: z.int(), remaining: z.int(), resetTimeMs: z.number() })),
    requests: z.int().meta({ description: 'Every /api/leo request since the start or the last reset.' }),
    tooManyRequests: z.int().meta({ description: 'How many of them were answered 429.' }),
  }),
  faults: FaultSettingsSchema,
});

export type DashboardSnapshot = z.infer<typeof DashboardSnapshotSchema>;

/** The panel's users, duty, sessions, request log, rate-limit windows and faults, as the dashboard shows them. */
export function dashboardSnapshot(store: PanelStore): DashboardSnapshot {
  const { users, duty } = store;
  const nameOf = (chatId: string) => users.find(chatId)?.name ?? chatId;
  const departmentName = (id: number) => users.department(id)?.name ?? `department ${id}`;
  const rankName = (departmentId: number, rankId: number) =>
    users.department(departmentId)?.ranks.find((rank) => rank.id === rankId)?.name ?? `rank ${rankId}`;
  const sessions = duty.sessions();
  return {
    ok: true,
    now: store.now(),
    guildId: store.guildId,
    departments: users.departments.map(({ id, slug, name, memberRoles, ranks }) => ({
      id,
      slug,
      name,
      memberRoles: [...memberRoles],
      ranks: ranks.map((rank) => ({ ...rank })),
    })),
    users: users.all().map((user) => ({
      chatId: user.chatId,
      name: user.name,
      roles: [...(user.roles[store.guildId] ?? [])],
      departments: users.departmentsOf(user).map(({ id, slug, name, rank }) => ({ id, slug, name, rank })),
    })),
    roster: sessions
      .filter((session) => session.endedAt === null)
      .map((session) => ({
        chatId: session.chatId,
        name: nameOf(session.chatId),
        departmentId: session.departmentId,
        departmentName: departmentName(session.departmentId),
        rankId: session.rankId,
        rankName: rankName(session.departmentId, session.rankId),
        since: session.startedAt,
        serverId: session.serverId,
        playerName: session.playerName,
      })),
    sessions: sessions
      .slice(-SHOWN)
      .reverse()
      .map((session) => ({
        ...session,
        name: nameOf(session.chatId),
        departmentName: departmentName(session.departmentId),
        rankName: rankName(session.departmentId, session.rankId),
      })),
    requests: store.requests.list().slice(-SHOWN).reverse(),
    rateLimit: {
      ...store.rateLimiter.policy,
      windows: store.rateLimiter
        .openWindows()
        .map(({ key, used, remaining, resetTimeMs }) => ({ key, used, remaining, resetTimeMs })),
      ...store.requests.counts(),
    },
    faults: store.faults.settings(),
  };
}
