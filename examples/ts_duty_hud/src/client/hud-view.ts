import type { DeptDataPayload, DutyOptions, ProfilePayload } from '@bridge/types';

/** What the HUD page (web/index.html) shows. */
export type HudView =
  | { state: 'off'; departments: number }
  | { state: 'on'; department: string; rank: string; callsign: string | null }
  | { state: 'unavailable'; message: string };

export const offDutyView = (departments: number): HudView => ({ state: 'off', departments });

/** The panel's department data is passed on as the panel sent it: read the callsign prefix only if it is one. */
function callsignPrefixOf(data: unknown): string | null {
  const prefix =
    typeof data === 'object' && data !== null ? (data as { callsignPrefix?: unknown }).callsignPrefix : null;
  return typeof prefix === 'string' ? prefix : null;
}

export const onDutyView = (department: DeptDataPayload): HudView => ({
  state: 'on',
  department: department.name,
  rank: department.rank.name,
  callsign: callsignPrefixOf(department.data),
});

export const profileView = (profile: ProfilePayload): HudView =>
  profile.ok ? offDutyView(profile.departments.length) : { state: 'unavailable', message: profile.message };

/** The view from what the bridge already knows, for a HUD (re)started after the bridge sent its events. */
export function currentView(options: DutyOptions): HudView | undefined {
  if (!options.ok) return undefined;
  const department = options.onDuty ? options.departments.find(({ id }) => id === options.selectedDeptId) : undefined;
  if (!department) return offDutyView(options.departments.length);
  // GetDutyOptions has no department data, so the callsign waits for the next deptData.
  return { state: 'on', department: department.name, rank: department.rank.name, callsign: null };
}
