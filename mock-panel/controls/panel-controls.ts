import { z } from 'zod';
import { ChatIdSchema, type DepartmentEntry, type PanelUser } from '../../shared/contract';
import type { DutySession, PanelStore, RequestLogEntry } from '../store';
import type { DepartmentRenamed } from '../store/user-directory';
import {
  ErrorsBodySchema,
  type FaultKind,
  type FaultSettings,
  LatencyBodySchema,
  MalformedBodySchema,
  OutageBodySchema,
  PutDepartmentBodySchema,
  PutUserBodySchema,
  RenameDepartmentBodySchema,
  RolesBodySchema,
} from './schemas';

export interface UserDeletion {
  user: PanelUser;
  /** The duty session the deletion ended; null when the user was off duty. */
  endedSession: DutySession | null;
}

export interface RolesChange {
  user: PanelUser;
  roles: Record<string, string[]>;
  departments: DepartmentEntry[];
}

export interface UserPut extends RolesChange {
  /** True when the user is new, false when one with this chat id was replaced. */
  created: boolean;
}

export type DepartmentPutResult =
  | { ok: true; created: boolean; department: { id: number; slug: string; name: string } }
  | { ok: false; problem: 'slug_taken' };

/** What a tester can do to the panel; the `/__mock` routes call exactly these. Inputs are validated with zod. */
export interface PanelControls {
  /**
   * Adds a user with this chat id, or replaces the one who has it: their name, and their roles in a guild (the
   * panel's by default; none when not given), as an account newly linked to the panel.
   */
  putUser(chatId: string, user: z.input<typeof PutUserBodySchema>): UserPut;
  /**
   * Adds a department with this id, or replaces the one that has it (slug, name, member roles, ranks lowest first,
   * and `data` when given). Refused when the slug is another department's.
   */
  putDepartment(departmentId: number, department: z.input<typeof PutDepartmentBodySchema>): DepartmentPutResult;
  /** Replaces a user's roles in a guild (the panel's by default), as `/syncme` does. null for an unknown user. */
  setRoles(chatId: string, roles: readonly string[], guildId?: string): RolesChange | null;
  /**
   * Deletes a user, as a panel admin deleting or banning the account: their departments and duty calls answer 404
   * `user_not_found` from then on, and their open duty session ends (`endedBy: 'deleted'`). null for an unknown user;
   * `reset()` brings them back.
   */
  deleteUser(chatId: string): UserDeletion | null;
  /**
   * Gives a department another slug, name or both (same id, ranks and roles), as an admin editing it does: every
   * member's departments answer with them from then on. Refused when the id is unknown or the slug is another
   * department's; `reset()` puts the seed's back.
   */
  renameDepartment(departmentId: number, rename: z.input<typeof RenameDepartmentBodySchema>): DepartmentRenamed;
  /** Delays every `/api/leo` answer by `ms` (0 removes the delay). */
  setLatency(ms: number): void;
  /** Answers a share of `/api/leo` requests with the code's status; `internal_error` is thrown inside the route. */
  injectErrors(fault: z.input<typeof ErrorsBodySchema>): void;
  /**
   * `reset` destroys the connection; `hang` never answers until the client gives up or the outage ends; `proxy_404`
   * answers nginx's HTML 404 page in the panel's place.
   */
  setOutage(fault: z.input<typeof OutageBodySchema>): void;
  /** Breaks the body of a share of answers: `invalid_json`, `wrong_shape` or `html`. */
  setMalformed(fault: z.input<typeof MalformedBodySchema>): void;
  clearFaults(kind?: FaultKind): void;
  faults(): FaultSettings;
  /** Requests a `hang` outage is holding right now. */
  hangingRequests(): number;
  sessions(chatId?: string): DutySession[];
  requests(): RequestLogEntry[];
  reset(): void;
}

export function createPanelControls(store: PanelStore): PanelControls {
  return {
    putUser(chatId, body) {
      const input = PutUserBodySchema.parse(body);
      const user = {
        chatId: ChatIdSchema.parse(chatId),
        name: input.name,
        roles: { [input.guildId ?? store.guildId]: input.roles },
      };
      const { created } = store.users.putUser(user);
      return {
        created,
        user: store.users.profileOf(user),
        roles: structuredClone(user.roles),
        departments: store.users.departmentsOf(user),
      };
    },
    putDepartment(departmentId, body) {
      const id = z.int().min(1).parse(departmentId);
      const department = { id, ...PutDepartmentBodySchema.parse(body) };
      const put = store.users.putDepartment(department);
      if (!put.ok) return put;
      return { ok: true, created: put.created, department: { id, slug: department.slug, name: department.name } };
    },
    setRoles(chatId, roles, guildId) {
      const input = RolesBodySchema.parse({ roles, guildId });
      const user = store.users.find(chatId);
      if (!user) return null;
      const updated = store.users.setRoles(user, input.roles, input.guildId);
      return {
        user: store.users.profileOf(updated),
        roles: structuredClone(updated.roles),
        departments: store.users.departmentsOf(updated),
      };
    },
    deleteUser(chatId) {
      const user = store.users.delete(chatId);
      if (!user) return null;
      return { user: store.users.profileOf(user), endedSession: store.duty.endDeleted(chatId) ?? null };
    },
    renameDepartment: (departmentId, rename) =>
      store.users.renameDepartment(departmentId, RenameDepartmentBodySchema.parse(rename)),
    setLatency: (ms) => store.faults.setLatency(LatencyBodySchema.parse({ ms }).ms),
    injectErrors: (fault) => store.faults.injectErrors(ErrorsBodySchema.parse(fault)),
    setOutage: (fault) => store.faults.setOutage(OutageBodySchema.parse(fault)),
    setMalformed: (fault) => store.faults.setMalformed(MalformedBodySchema.parse(fault)),
    clearFaults: (kind) => store.faults.clear(kind),
    faults: () => store.faults.settings(),
    hangingRequests: () => store.faults.hanging,
    sessions: (chatId) => store.duty.sessions(chatId),
    requests: () => store.requests.list(),
    reset: () => store.reset(),
  };
}
