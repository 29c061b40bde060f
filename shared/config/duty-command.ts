/**
 * What `Config.DutyCommand` accepts. Apart from the config schema so the client bundle, which carries no zod, reads
 * the same rules as the server validates.
 */

export const DEFAULT_DUTY_COMMAND_NAME = 'duty';

/** How `/duty` lets a player with several departments choose: ox_lib's context menu while ox_lib runs, or chat. */
export const DUTY_MENU_STYLES = ['auto', 'chat'] as const;
export type DutyMenuStyle = (typeof DUTY_MENU_STYLES)[number];

// The bridge's other commands: a duty command of the same name would replace one of their handlers (the last
// registration of a name wins), so it is refused. `dutykick` is the supervisors' command.
const RESERVED_NAMES = ['dutyrefresh', 'dutykick', 'bridge'];

/** Why a name cannot be the duty command's, or undefined when it can. */
export function dutyCommandNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'a command name must be a string';
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(name)) {
    return 'a command name is a letter, then up to 31 letters, digits, _ or -, without the /';
  }
  if (RESERVED_NAMES.includes(name.toLowerCase())) return `/${name} is one of the bridge's own commands`;
  return undefined;
}
