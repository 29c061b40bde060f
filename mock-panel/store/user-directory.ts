import type { DepartmentEntry, PanelUser } from '../../shared/contract';
import type { MockDepartment, MockPanelData, MockUser } from '../data/schema';
import { departmentsOf } from './departments-of';

/** The panel's users and departments; role changes are what `/syncme` or "Refresh roles" do in the real panel. */
export class UserDirectory {
  private users = new Map<string, MockUser>();

  constructor(
    private readonly seed: MockPanelData,
    readonly guildId: string,
  ) {
    this.reset();
  }

  get departments(): readonly MockDepartment[] {
    return this.seed.departments;
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
    return departmentsOf(user, this.seed.departments, this.guildId);
  }

  department(departmentId: number): MockDepartment | undefined {
    return this.seed.departments.find((department) => department.id === departmentId);
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
  }
}
