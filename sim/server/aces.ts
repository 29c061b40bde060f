// Access control entries and principal inheritance (add_ace / add_principal), as FXServer's security context keeps
// them (citizenfx/fivem code/client/citicore/se/Security.cpp at 06d4d348):
// - both are multimaps: adding the same entry twice keeps two, and a remove erases every entry that matches, so a
//   remove_principal undoes any number of add_principal of that pair, whoever added them;
// - a principal inherits its parents' entries, recursively;
// - an object is checked with its parents (`command.foo.bar`, `command.foo`, `command`): a deny on any of them wins,
//   otherwise any allow allows;
// - principal and object names are lowercased as they are made (se/Security.h, `::tolower`: ASCII only), so
//   `bridge.LSPD` and `bridge.lspd` are one principal and `list_principals` prints them lowercased.
const lower = (name: string): string => name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

export class AceStore {
  private readonly entries: { principal: string; object: string; allow: boolean }[] = [];
  private readonly inheritance: { child: string; parent: string }[] = [];

  addAce(principal: string, object: string, mode: string): void {
    this.entries.push({ principal: lower(principal), object: lower(object), allow: mode !== 'deny' });
  }

  removeAce(principal: string, object: string, mode: string): void {
    const allow = mode !== 'deny';
    [principal, object] = [lower(principal), lower(object)];
    this.removeWhere(this.entries, (e) => e.principal === principal && e.object === object && e.allow === allow);
  }

  addPrincipal(child: string, parent: string): void {
    this.inheritance.push({ child: lower(child), parent: lower(parent) });
  }

  removePrincipal(child: string, parent: string): void {
    [child, parent] = [lower(child), lower(parent)];
    this.removeWhere(this.inheritance, (e) => e.child === child && e.parent === parent);
  }

  /** Every principal these are in, directly or through their parents (not the given ones themselves). */
  parentsOf(given: readonly string[]): string[] {
    const principals = given.map(lower);
    const found = new Set<string>();
    const pending = [...principals];
    while (pending.length) {
      const principal = pending.pop() as string;
      for (const { child, parent } of this.inheritance) {
        if (child === principal && !found.has(parent)) {
          found.add(parent);
          pending.push(parent);
        }
      }
    }
    for (const principal of principals) found.delete(principal);
    return [...found].sort();
  }

  /** `child <- parent` for every inheritance, in the order added (what `list_principals` prints). */
  principalLines(): string[] {
    return this.inheritance.map(({ child, parent }) => `${child} <- ${parent}`);
  }

  /** `principal -> object = ALLOW|DENY` for every entry (what `list_aces` prints). */
  aceLines(): string[] {
    return this.entries.map((e) => `${e.principal} -> ${e.object} = ${e.allow ? 'ALLOW' : 'DENY'}`);
  }

  /** Whether one principal (with everything it inherits, and builtin.everyone) may use `object`. */
  isAllowed(principal: string, object: string): boolean {
    [principal, object] = [lower(principal), lower(object)];
    const all = new Set([principal, 'builtin.everyone', ...this.parentsOf([principal, 'builtin.everyone'])]);
    const segments = object.split('.');
    let allowed = false;
    for (let n = segments.length; n > 0; n--) {
      const candidate = segments.slice(0, n).join('.');
      for (const entry of this.entries) {
        if (entry.object !== candidate || !all.has(entry.principal)) continue;
        if (!entry.allow) return false;
        allowed = true;
      }
    }
    return allowed;
  }

  /** Whether any of these principals may use `object` (a player's identifiers, or a principal stack). */
  isAnyAllowed(principals: readonly string[], object: string): boolean {
    return principals.some((principal) => this.isAllowed(principal, object));
  }

  private removeWhere<T>(list: T[], matches: (entry: T) => boolean): void {
    for (let i = list.length - 1; i >= 0; i--) if (matches(list[i] as T)) list.splice(i, 1);
  }
}
