import type { ServerPort } from '../../kernel/index.js';

/** What the bridge asks of FXServer's security context: principal inheritance, through the server console. */
export interface AceConsole {
  /** The server.cfg lines the bridge still needs for this (empty: it may). */
  missingAces(action: 'add' | 'remove'): string[];
  addPrincipal(child: string, parent: string): void;
  removePrincipal(child: string, parent: string): void;
}

// Nothing but a principal name may reach the console line: no space, quote, `;` or comment that would change it.
const PRINCIPAL_NAME = /^[A-Za-z0-9_.:-]+$/;

const commandLine = (command: string, child: string, parent: string): string => {
  for (const name of [child, parent]) {
    if (!PRINCIPAL_NAME.test(name)) throw new Error(`"${name}" cannot be a principal name in a console command`);
  }
  return `${command} ${child} ${parent}`;
};

/**
 * add_principal / remove_principal through ExecuteCommand. FXServer runs a resource's console line as the principal
 * `resource.<name>`, which needs the ACE of each command (`command.add_principal`, `command.remove_principal`), or
 * the line is refused with only "Access denied" in the console; so the bridge asks first.
 */
export function createAceConsole(
  port: Pick<ServerPort, 'resourceName' | 'executeCommand' | 'isPrincipalAceAllowed'>,
): AceConsole {
  const resource = `resource.${port.resourceName}`;
  const needed = (command: string): string[] =>
    port.isPrincipalAceAllowed(resource, `command.${command}`) ? [] : [`add_ace ${resource} command.${command} allow`];
  return {
    missingAces: (action) =>
      action === 'add' ? [...needed('add_principal'), ...needed('remove_principal')] : needed('remove_principal'),
    addPrincipal: (child, parent) => port.executeCommand(commandLine('add_principal', child, parent)),
    removePrincipal: (child, parent) => port.executeCommand(commandLine('remove_principal', child, parent)),
  };
}
