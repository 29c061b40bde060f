// Access control entries (add_ace / add_principal). A principal inherits its parents' entries; an object is
// checked from the most specific to the least (`command.foo` then `command`), and at one level a deny wins.
export class AceStore {
  private readonly entries: { principal: string; object: string; allow: boolean }[] = [];
  private readonly parents = new Map<string, Set<string>>();

  addAce(principal: string, object: string, mode: string): void {
    this.entries.push({ principal, object, allow: mode !== 'deny' });
  }

  removeAce(principal: string, object: string, mode: string): void {
    const allow = mode !== 'deny';
    const i = this.entries.findIndex((e) => e.principal === principal && e.object === object && e.allow === allow);
    if (i >= 0) this.entries.splice(i, 1);
  }

  addPrincipal(child: string, parent: string): void {
    const set = this.parents.get(child) ?? new Set<string>();
    set.add(parent);
    this.parents.set(child, set);
  }

  removePrincipal(child: string, parent: string): void {
    this.parents.get(child)?.delete(parent);
  }

  /** These principals and every one they are in, directly or through a parent, in the order they are found. */
  private closure(principals: readonly string[]): Set<string> {
    const all = new Set<string>();
    const pending = [...principals].reverse();
    while (pending.length) {
      const p = pending.pop() as string;
      if (all.has(p)) continue;
      all.add(p);
      pending.push(...[...(this.parents.get(p) ?? [])].reverse());
    }
    return all;
  }

  /** The principals these are in through add_principal, directly or inherited, without themselves. */
  parentsOf(principals: readonly string[]): string[] {
    return [...this.closure(principals)].filter((p) => !principals.includes(p));
  }

  isAllowed(principals: readonly string[], object: string): boolean {
    const all = this.closure([...principals, 'builtin.everyone']);
    const segments = object.split('.');
    for (let n = segments.length; n > 0; n--) {
      const candidate = segments.slice(0, n).join('.');
      const relevant = this.entries.filter((e) => all.has(e.principal) && e.object === candidate);
      if (relevant.some((e) => !e.allow)) return false;
      if (relevant.length > 0) return true;
    }
    return false;
  }
}
