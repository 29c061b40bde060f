import type { DutyOptionDepartment, DutyOptions } from '../../shared/events.js';
import { type PlayerMessages, profileMessageKey } from '../player-messages.js';
import type { DutyChoice } from './department-chooser.js';

export interface DutyCommandDeps {
  /** The command's name, for the message about a department the player does not have. */
  command: string;
  /** GetDutyOptions(): what any duty menu reads, so a stale profile is revalidated as for a menu. */
  options(): DutyOptions;
  /** The department of the player's duty, or null off duty. */
  onDutyIn(): number | null;
  goOn(department: DutyOptionDepartment): void;
  goOff(): void;
  choose(choice: DutyChoice): void;
  say: PlayerMessages['say'];
}

const OFF = 'off';

/** `/duty 2` is the second department of the list; anything else is a slug, in any case. */
function departmentNamed(departments: readonly DutyOptionDepartment[], choice: string) {
  const position = /^\d+$/.test(choice) ? departments[Number(choice) - 1] : undefined;
  return position ?? departments.find((department) => department.slug.toLowerCase() === choice.toLowerCase());
}

/**
 * The players' duty command, on the same path as a duty menu built on the exports: `setActive()` and
 * `UpdatePlayerDuty`, so the server checks and rate-limits it like any request and the player gets the same
 * notifications. `/duty` toggles a player's only department or lets them choose among several, `/duty <number or
 * slug>` goes on duty there, `/duty off` goes off duty. The client names only a department; whose duty it is, the
 * server takes from who sent the request.
 */
export function createDutyCommand(deps: DutyCommandDeps) {
  return (args: readonly string[]): void => {
    const choice = args.join(' ').trim();
    if (choice.toLowerCase() === OFF) {
      deps.goOff();
      return;
    }
    const options = deps.options();
    if (!options.ok) {
      deps.say(
        options.error === undefined || options.error === 'loading' ? 'loading' : profileMessageKey(options.error),
      );
      return;
    }
    const { departments } = options;
    const [only] = departments;
    if (only === undefined) {
      deps.say('no_departments');
      return;
    }
    const onDutyIn = deps.onDutyIn();
    if (choice === '') {
      if (departments.length > 1) deps.choose({ departments, onDutyIn });
      else if (onDutyIn === null) deps.goOn(only);
      else deps.goOff();
      return;
    }
    const department = departmentNamed(departments, choice);
    if (department) deps.goOn(department);
    else deps.say('duty_unknown_department', { choice, command: deps.command });
  };
}
