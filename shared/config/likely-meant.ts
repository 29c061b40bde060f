// A near miss is most often another spelling of the same name ('qb-core', 'QBCore' for 'qbcore') or a typo or two.
const normalized = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The one of `names` that `written` most likely meant: the same name spelt otherwise, else the only one within two
 * edits. `aliases` maps other names owners write (a framework's resource name) to the name meant.
 */
export function likelyMeant(
  written: string,
  names: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  const key = normalized(written);
  if (key === '') return undefined;
  const alias = Object.entries(aliases).find(([other]) => normalized(other) === key)?.[1];
  if (alias !== undefined) return alias;
  const same = names.find((name) => normalized(name) === key);
  if (same !== undefined) return same;
  const near = names.filter((name) => editDistance(normalized(name), key) <= Math.min(2, key.length - 1));
  return near.length === 1 ? near[0] : undefined;
}
