import type { DutyMenuStyle } from '../../shared/config/duty-command.js';
import type { DutyOptionDepartment } from '../../shared/events.js';
import type { ClientPort } from '../client-port.js';
import type { PlayerMessages } from '../player-messages.js';

const OX_LIB = 'ox_lib';
// ox_lib keeps every resource's context menus in one table by id: the resource's name keeps this one apart.
const MENU_ID = 'bridge:duty';

export interface DepartmentChooserDeps {
  port: ClientPort;
  text: PlayerMessages['text'];
  /** The duty command's name, for the lines that tell the player what to type. */
  command: string;
  menu: DutyMenuStyle;
  goOn(department: DutyOptionDepartment): void;
  goOff(): void;
}

/** What the chooser lists: the player's departments, and the one they are on duty in. */
export interface DutyChoice {
  departments: readonly DutyOptionDepartment[];
  onDutyIn: number | null;
}

/**
 * How a player with several departments picks one: ox_lib's context menu while ox_lib is started (checked each time,
 * as the notifications do), a numbered list in chat otherwise, or when the owner chose chat, or when ox_lib fails.
 */
export function createDepartmentChooser({ port, text, command, menu, goOn, goOff }: DepartmentChooserDeps) {
  let oxLibFailed = false;

  const paramsOf = (department: DutyOptionDepartment, index: number) => ({
    number: index + 1,
    department: department.name,
    slug: department.slug,
    rank: department.rank.name,
  });

  function showChatList({ departments, onDutyIn }: DutyChoice): void {
    const author = text('notification_title');
    port.chatMessage(author, text('duty_choose', { command }));
    departments.forEach((department, index) => {
      const key = department.id === onDutyIn ? 'duty_list_department_on_duty' : 'duty_list_department';
      port.chatMessage(author, text(key, paramsOf(department, index)));
    });
  }

  /**
   * ox_lib's `lib.registerContext` and `lib.showContext` are its exports (resource/interface/client/context.lua).
   * A selected entry's `onSelect` is called back through the function reference; the department the player is on
   * duty in is shown but cannot be selected, and "off duty" is there only while on duty.
   */
  function showOxLibMenu({ departments, onDutyIn }: DutyChoice): void {
    const options: object[] = departments.map((department, index) => {
      const here = department.id === onDutyIn;
      const description = text(
        here ? 'duty_menu_department_on_duty' : 'duty_menu_department',
        paramsOf(department, index),
      );
      return here
        ? { title: department.name, description, disabled: true }
        : { title: department.name, description, onSelect: () => goOn(department) };
    });
    if (onDutyIn !== null) options.push({ title: text('duty_menu_off'), onSelect: () => goOff() });
    port.callExport(OX_LIB, 'registerContext', { id: MENU_ID, title: text('duty_menu_title'), options });
    port.callExport(OX_LIB, 'showContext', MENU_ID);
  }

  return (choice: DutyChoice): void => {
    if (menu === 'auto' && port.resourceState(OX_LIB) === 'started') {
      try {
        showOxLibMenu(choice);
        return;
      } catch (error) {
        if (!oxLibFailed)
          port.log(`ox_lib's context menu failed, listing the departments in chat instead: ${String(error)}`);
        oxLibFailed = true;
      }
    }
    showChatList(choice);
  };
}
