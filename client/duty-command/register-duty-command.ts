import type { DutyOptionDepartment, DutyOptions } from '../../shared/events.js';
import type { ClientPort } from '../client-port.js';
import type { PlayerMessages } from '../player-messages.js';
import type { ClientSettings } from '../settings.js';
import { createDepartmentChooser } from './department-chooser.js';
import { createDutyCommand } from './duty-command.js';

/** The client exports the duty command goes through, exactly as another resource's duty menu calls them. */
export interface DutyExports {
  getDutyOptions(): DutyOptions;
  updatePlayerDuty(status: unknown): boolean;
  /** The department of the player's duty, or null off duty. */
  onDutyIn(): number | null;
}

/** Config.DutyCommand: the command under the owner's name, with its chat suggestion. */
export function registerDutyCommand(
  port: ClientPort,
  { name, menu }: ClientSettings['dutyCommand'],
  { say, text }: PlayerMessages,
  { getDutyOptions, updatePlayerDuty, onDutyIn }: DutyExports,
): void {
  const goOn = (department: DutyOptionDepartment) => {
    department.setActive();
    updatePlayerDuty(true);
  };
  const goOff = () => {
    updatePlayerDuty(false);
  };
  const command = createDutyCommand({
    command: name,
    options: getDutyOptions,
    onDutyIn,
    goOn,
    goOff,
    choose: createDepartmentChooser({ port, text, command: name, menu, goOn, goOff }),
    say,
  });
  port.registerCommand(name, text('duty_help'), command, [
    { name: text('duty_param_name'), help: text('duty_param_help') },
  ]);
}
