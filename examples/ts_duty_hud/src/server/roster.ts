/** A player on duty, as the roster lists them. */
export interface RosterEntry {
  source: number;
  name: string;
  departmentId: number;
  rankId: number;
}

/** Who is on duty, in the order they went on duty. */
export class DutyRoster {
  private readonly entries = new Map<number, RosterEntry>();

  /** Going on duty again (another department, say) moves the player to the end with their new department. */
  add(entry: RosterEntry): void {
    this.entries.delete(entry.source);
    this.entries.set(entry.source, entry);
  }

  remove(source: number): void {
    this.entries.delete(source);
  }

  list(departmentId?: number): RosterEntry[] {
    const all = [...this.entries.values()];
    return departmentId === undefined ? all : all.filter((entry) => entry.departmentId === departmentId);
  }
}

export const describeEntry = ({ source, name, departmentId, rankId }: RosterEntry): string =>
  `[${source}] ${name}: department ${departmentId}, rank ${rankId}`;
