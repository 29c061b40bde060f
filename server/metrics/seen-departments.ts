import { filter, map, merge, mergeMap, type Observable } from 'rxjs';
import type { DutyChange } from '../duty/index.js';
import type { ProfileUpdate } from '../profiles/index.js';

// More departments than any community has; a panel that sends a new slug with every answer cannot grow the
// exposition without bound. Past it, a department shows only while someone is on duty there.
const MAX_SEEN = 256;

/** A department slug the bridge saw, or one that no longer names a department (renamed by the panel). */
export type DepartmentNews = { kind: 'seen'; slug: string } | { kind: 'gone'; slug: string };

const slugOf = (duty: DutyChange['next']) => duty.departmentSlug ?? String(duty.departmentId);

/**
 * The slugs of the departments a profile the bridge held or served names, and of each department a player went on
 * duty in (its id when the slug is unknown, as the on-duty counts name it); the old slug of a renamed department is
 * gone, so no alert watches a department that only exists under its new name.
 */
export function departmentsSeen$(
  profiles$: Observable<ProfileUpdate>,
  dutyChanges$: Observable<DutyChange>,
): Observable<DepartmentNews> {
  const fromProfiles = profiles$.pipe(
    map((update) => (update.kind === 'held' ? update.entry : update.kind === 'served' ? update.view.entry : undefined)),
    mergeMap((entry) => (entry?.kind === 'found' ? entry.departments.map((department) => department.slug) : [])),
    map((slug): DepartmentNews => ({ kind: 'seen', slug })),
  );
  const fromDuty = dutyChanges$.pipe(
    filter((change) => change.kind !== 'off'),
    mergeMap((change): DepartmentNews[] => {
      const seen: DepartmentNews = { kind: 'seen', slug: slugOf(change.next) };
      const before = slugOf(change.previous);
      return change.kind === 'renamed' && before !== seen.slug ? [{ kind: 'gone', slug: before }, seen] : [seen];
    }),
  );
  return merge(fromProfiles, fromDuty);
}

/**
 * Every department seen since the resource started, so that one nobody is on duty for reads 0 instead of vanishing
 * from the exposition (an alert on `< 3` never fires on a series that is absent).
 */
export class SeenDepartments {
  private readonly slugs = new Set<string>();

  add(slug: string): void {
    if (this.slugs.size < MAX_SEEN) this.slugs.add(slug);
  }

  take(news: DepartmentNews): void {
    if (news.kind === 'seen') this.add(news.slug);
    else this.slugs.delete(news.slug);
  }

  /** The counts given, and every other department seen at 0. */
  withZeros(counts: Readonly<Record<string, number>>): Record<string, number> {
    for (const slug of Object.keys(counts)) this.add(slug);
    // Without a prototype, as the counts: a slug is the panel's text.
    const all: Record<string, number> = Object.create(null);
    for (const slug of this.slugs) all[slug] = 0;
    return Object.assign(all, counts);
  }
}
