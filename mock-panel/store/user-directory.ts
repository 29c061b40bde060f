import type { DepartmentEntry, PanelUser } from '../../shared/contract';
import type { MockDepartment, MockPanelData, MockUser } from '../data/schema';
import { departmentsOf } from './departments-of';

export interface DepartmentRename {
  slug?: string | undefined;
  name?: string | undefined;
}

export type DepartmentRenamed =
  | { ok: true; department: MockDepartment }
  | { ok: false; problem: 'not_found' | 'slug_taken' };

export type DepartmentPut = { ok: true; created: boolean } | { ok: false; problem: 'slug_taken' };

/**
 * The panel's users and departments; role changes are what `/syncme` or "Refresh roles" do in the real panel, a
 * rename what an admin editing a department does (same id, ranks and roles).
 */
export class UserDirectory {
  private users = new Map<string, MockUser>();
  private departmentList: MockDepartment[] = [];

  constructor(
    private readonly seed: MockPanelData,
    readonly guildId: string,
  ) {
    this.reset();
  }

  get departments(): readonly MockDepartment[] {
    return this.departmentList;
  }

  find(chatId: string): MockUser | undefined {
    return this.users.get(chatId);
  }

  all(): MockUser[] {
    return [...this.users.values()];
  }

  profileOf(user: MockUser): PanelUser {
    return { chatId: user.chatId, name: user.name };
  }

  departmentsOf(user: MockUser): DepartmentEntry[] {
    return departmentsOf(user, this.departmentList, this.guildId);
  }

  department(departmentId: number): MockDepartment | undefined {
    return this.departmentList.find((department) => department.id === departmentId);
  }

  /** Gives a department another slug or name; a slug another department has is refused, as slugs are unique. */
  renameDepartment(departmentId: number, rename: DepartmentRename): DepartmentRenamed {
    const current = this.department(departmentId);
    if (!current) return { ok: false, problem: 'not_found' };
    const { slug = current.slug, name = current.name } = rename;
    if (this.departmentList.some((other) => other.id !== departmentId && other.slug === slug)) {
      return { ok: false, problem: 'slug_taken' };
    }
    const department = { ...current, slug, name };
    this.departmentList = this.departmentList.map((other) => (other.id === departmentId ? department : other));
    return { ok: true, department };
  }

  /** Adds a user, or replaces the one with this chat id, as a new account linking to the panel does. */
  putUser(user: MockUser): { created: boolean } {
    const created = !this.users.has(user.chatId);
    this.users.set(user.chatId, user);
    return { created };
  }

  /**
   * Adds a department, or replaces the one with this id, as an admin creating or editing it does; a slug another
   * department has is refused, as slugs are unique. A replaced department keeps its place in the list.
   */
  putDepartment(department: MockDepartment): DepartmentPut {
    if (this.departmentList.some((other) => other.id !== department.id && other.slug === department.slug)) {
      return { ok: false, problem: 'slug_taken' };
    }
    const created = !this.department(department.id);
    this.departmentList = created
      ? [...this.departmentList, department]
      : this.departmentList.map((other) => (other.id === department.id ? department : other));
    return { ok: true, created };
  }

  /** Replaces the user's roles in one guild (the panel's guild unless another is named). */
  setRoles(user: MockUser, roleIds: readonly string[], guildId = this.guildId): MockUser {
    const updated = { ...user, roles: { ...user.roles, [guildId]: [...roleIds] } };
    this.users.set(user.chatId, updated);
    return updated;
  }

  /** Removes the user, as a panel admin deleting or banning the account: the panel no longer knows the chat id. */
  delete(chatId: string): MockUser | undefined {
    const user = this.users.get(chatId);
    this.users.delete(chatId);
    return user;
  }

  reset(): void {
    this.users = new Map(this.seed.users.map((user) => [user.chatId, structuredClone(user)]));
    this.departmentList = structuredClone(this.seed.departments);
  }
}
