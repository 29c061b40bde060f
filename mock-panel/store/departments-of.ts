import type { DepartmentEntry } from '../../shared/contract';
import type { MockDepartment, MockUser } from '../data/schema';

/**
 * The departments a user belongs to, computed from the roles they hold in `guildId` only: roles in any other
 * guild grant nothing. Membership needs a member role; the rank is the highest held rank role (ranks are listed
 * lowest first), or the entry rank when the member holds none.
 */
export function departmentsOf(
  user: MockUser,
  departments: readonly MockDepartment[],
  guildId: string,
): DepartmentEntry[] {
  const held = new Set(user.roles[guildId] ?? []);
  return departments.flatMap((department) => {
    if (!department.memberRoles.some((roleId) => held.has(roleId))) return [];
    const rank = department.ranks.findLast((candidate) => held.has(candidate.roleId)) ?? department.ranks[0];
    if (!rank) return [];
    return [
      {
        id: department.id,
        slug: department.slug,
        name: department.name,
        rank: { id: rank.id, name: rank.name },
        ...(department.data === undefined ? {} : { data: department.data }),
      },
    ];
  });
}
