import { filter, map, merge, mergeMap, type Observable } from 'rxjs';
import type { DutyChange } from '../duty/duty-change.js';
import type { ProfileUpdate } from '../profiles/profile-updates.js';

// More departments than any community has; a panel that sends a new slug with every answer cannot grow the
// exposition without bound. Past it, a department shows only while someone is on duty there.
const MAX_SEEN = 256;

/**
 * The slugs of the departments a profile the bridge held or served names, and of each department a player went on
 * duty in (its id when the slug is unknown, as the on-duty counts name it).
 */
export function departmentsSeen$(
  profiles$: Observable<ProfileUpdate>,
  dutyChanges$: Observable<DutyChange>,
): Observable<string> {
  const fromProfiles = profiles$.pipe(
    map((update) => (update.kind === 'held' ? update.entry : update.kind === 'served' ? update.view.entry : undefined)),
    mergeMap((entry) => (entry?.kind === 'found' ? entry.departments.map((department) => department.slug) : [])),
  );
  const fromDuty = dutyChanges$.pipe(
    filter((change) => change.kind !== 'off'),
    map(({ next }) => next.departmentSlug ?? String(next.departmentId)),
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

  /** The counts given, and every other department seen at 0. */
  withZeros(counts: Readonly<Record<string, number>>): Record<string, number> {
    for (const slug of Object.keys(counts)) this.add(slug);
    // Without a prototype, as the counts: a slug is the panel's text.
    const all: Record<string, number> = Object.create(null);
    for (const slug of this.slugs) all[slug] = 0;
    return Object.assign(all, counts);
  }
}
