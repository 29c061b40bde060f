import * as z from '../../../shared/zod-mini.js';
import type { ResourcePort } from '../integration.js';
import {
  type FrameworkAdapter,
  gradesByName,
  JOB_OK,
  type JobAssignment,
  type JobOutcome,
  leftAlone,
  notLoaded,
  type PlayerRead,
  refused,
} from './job-framework.js';

const RESOURCE = 'ox_core';

/** A character's groups (name to grade) and their active group, ox_core's duty. */
export interface OxGroups {
  groups: Record<string, number>;
  activeGroup: string | null;
}

const OxGroupsSchema: z.ZodMiniType<OxGroups, unknown> = z.object({
  groups: z.record(z.string(), z.number().check(z.int())),
  activeGroup: z.nullable(z.string()),
});

/** The group as ox_core publishes it in GlobalState['group.<name>']: grades are labels, grade n the n-th. */
interface OxGroup {
  type?: unknown;
  grades?: unknown;
}

const NO_CHARACTER = 'ox_core: the player has no character loaded';

/**
 * ox_core has groups, not a job, and the active group as its duty: on duty the department's group is set at the
 * rank's grade with `CallPlayer(src, 'setGroup', name, grade)` (async: a database write) and made the active group
 * with `setActiveGroup(name, true)` (temporary: a server that dies leaves no one active); off duty the group is
 * removed only if the bridge added it (setGroup(name, 0) deletes the character_groups row), else its grade goes
 * back, and the active group the character had is set again. setGroup answers nothing for no change, an unknown
 * group or grade, and a group of a type the character already holds: the grade is read back, and GlobalState says
 * which it was.
 */
export function createOxCoreAdapter(resources: ResourcePort): FrameworkAdapter<OxGroups> {
  const callPlayer = (src: number, method: string, ...args: unknown[]) =>
    resources.callExport(RESOURCE, 'CallPlayer', src, method, ...args);
  const group = (name: string) => resources.globalState(`group.${name}`) as OxGroup | null | undefined;

  /** Why setGroup left the grade as it was. */
  const whyNot = (groups: Record<string, number>, { job, grade }: JobAssignment): JobOutcome => {
    const wanted = group(job);
    if (!wanted) return refused(`ox_core has no group ${job}`, 'create it (ox_groups, or exports.ox_core:CreateGroup)');
    const grades = Array.isArray(wanted.grades) ? wanted.grades.length : 0;
    if (grade < 1 || grade > grades)
      return refused(`ox_core has no grade ${grade} in the group ${job}`, 'add it to ox_group_grades');
    const sameType = Object.keys(groups).find((held) => wanted.type && group(held)?.type === wanted.type);
    if (sameType) {
      return refused(
        `the character holds ${sameType}, of the same type '${String(wanted.type)}', and ox_core allows one group of a type`,
        `map the department to ${sameType} in Config.Integrations.DepartmentJobs, or give the group ${job} another type`,
      );
    }
    return refused(`ox_core did not set the group ${job} (grade ${grade})`, "see ox_core's warning in the console");
  };

  const charIdOf = (src: number): string | undefined => {
    const player = resources.callExport(RESOURCE, 'GetPlayer', src) as { charId?: unknown } | null;
    return player?.charId === undefined || player.charId === null ? undefined : String(player.charId);
  };
  const stillLoaded = (src: number, character: string) => charIdOf(src) === character;

  const read = (src: number): PlayerRead<OxGroups> => {
    const character = charIdOf(src);
    if (character === undefined) return notLoaded(NO_CHARACTER);
    const groups = gradesByName(callPlayer(src, 'getGroups'));
    const active = callPlayer(src, 'get', 'activeGroup');
    return {
      ok: true,
      character,
      holdings: { groups, activeGroup: typeof active === 'string' ? active : null },
    };
  };

  return {
    id: 'ox_core',
    resource: RESOURCE,
    label: 'ox_core',
    lowestGrade: 1,
    holds: 'group',
    noun: 'group',
    answersLater: true,
    holdingsSchema: OxGroupsSchema,
    read,
    async give(src, { holdings }, target) {
      if (holdings.groups[target.job] !== target.grade) {
        const result = await callPlayer(src, 'setGroup', target.job, target.grade);
        if (result === false) return notLoaded(NO_CHARACTER);
        // true: the row is written, even when ox_core unloaded the player while it waited (it is theirs to give back).
        if (result !== true && callPlayer(src, 'getGroup', target.job) !== target.grade) {
          return whyNot(holdings.groups, target);
        }
      }
      if (holdings.activeGroup !== target.job) callPlayer(src, 'setActiveGroup', target.job, true);
      return JOB_OK;
    },
    async giveBack(src, { character, holdings }, given, before) {
      const stillGiven = holdings.groups[given.job] === given.grade;
      let active = holdings.activeGroup;
      if (stillGiven) {
        const held = before.groups[given.job];
        if (held === undefined) {
          // Removing the group also ends it being the active one.
          if ((await callPlayer(src, 'setGroup', given.job, 0)) === true && active === given.job) active = null;
        } else if (held !== given.grade) {
          await callPlayer(src, 'setGroup', given.job, held);
        }
      }
      if ((active === given.job || active === null) && active !== before.activeGroup) {
        const restored =
          before.activeGroup === null
            ? callPlayer(src, 'setActiveGroup')
            : callPlayer(src, 'setActiveGroup', before.activeGroup);
        // ox_core unloaded them while the group was being removed: their active group (cleared in character_groups
        // when the department's was set) is given back when the character loads again.
        if (restored !== true && !stillLoaded(src, character)) return notLoaded(NO_CHARACTER);
      }
      return stillGiven
        ? JOB_OK
        : leftAlone(`ox_core: player ${src}'s group ${given.job} was changed while on duty; it is left`);
    },
    onCharacterLoaded(loaded) {
      resources.onLocal('ox:playerLoaded', (playerId, _userId, charId) => {
        if (charId !== undefined && charId !== null) loaded(Number(playerId), String(charId));
      });
    },
  };
}
