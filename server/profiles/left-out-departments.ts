import type { LeftOutDepartment } from '../../shared/contract/index.js';
import type { Logger } from '../kernel/index.js';

/** What the panel sent as an id or slug, short enough for one console line. */
const shown = (value: unknown): string => (value === undefined ? 'none' : String(JSON.stringify(value)).slice(0, 40));

/**
 * Tells the owner once per department that the panel sends one the bridge cannot read, naming the player it was first
 * seen for: the department is the panel's configuration, the same for every member, so one line says it all.
 */
export function tellLeftOutDepartment(logger: Pick<Logger, 'once'>) {
  return (chatId: string, { id, slug, problem }: LeftOutDepartment): void => {
    const department = `id ${shown(id)} (slug ${shown(slug)})`;
    logger.once(
      `department-left-out:${department}`,
      'warn',
      `the panel's department ${department} of chat id ${chatId} cannot be read (${problem}); it is left out, and the player's other departments are kept`,
    );
  };
}
