import type { ServerPort } from '../../kernel/index.js';

/** The restricted console command every admin action hangs off: `bridge <subcommand> [arguments]`. */
export const ADMIN_COMMAND = 'bridge';

export interface CommandContext {
  /** Who ran it: 0 for the console, else a player allowed by the ACE `command.bridge`. */
  src: number;
  reply(line: string): void;
}

export interface Subcommand {
  name: string;
  /** Arguments after the name, for the help text (e.g. `<player id>`); empty when there are none. */
  usage: string;
  summary: string;
  run(context: CommandContext, args: string[]): void;
}

/**
 * Registers `bridge` as a restricted command (the console, and players granted `command.bridge`). A new admin action
 * is one more `Subcommand`; `bridge` alone or `bridge help` lists them.
 */
export function registerAdminCommand(
  port: Pick<ServerPort, 'registerCommand' | 'reply'>,
  subcommands: readonly Subcommand[],
  { redact, onError }: { redact: (text: string) => string; onError: (message: string) => void },
): void {
  const byName = new Map(subcommands.map((subcommand) => [subcommand.name, subcommand]));
  const rows = [
    ...subcommands.map(({ name, usage, summary }) => [`${name} ${usage}`.trim(), summary] as const),
    ['help', 'this list'] as const,
  ];
  const width = Math.max(...rows.map(([call]) => call.length));
  const row = ([call, summary]: readonly [string, string]) => `  ${call.padEnd(width)}  ${summary}`;
  const help = (): string[] => [`usage: ${ADMIN_COMMAND} <subcommand>`, ...rows.map(row)];
  // A required argument is written `<…>`: without it, the subcommand's own usage says what to type.
  const usageOf = ({ name, usage, summary }: Subcommand): string[] => [
    `usage: ${ADMIN_COMMAND} ${name} ${usage}`,
    `  ${summary}`,
  ];

  port.registerCommand(
    ADMIN_COMMAND,
    (src, args) => {
      const reply = (line: string) => port.reply(src, redact(line));
      const [name = 'help', ...rest] = args;
      const subcommand = byName.get(name.toLowerCase());
      if (name.toLowerCase() === 'help' || !subcommand) {
        if (name.toLowerCase() !== 'help') reply(`unknown subcommand "${name}"`);
        for (const line of help()) reply(line);
        return;
      }
      if (subcommand.usage.startsWith('<') && rest.length === 0) {
        for (const line of usageOf(subcommand)) reply(line);
        return;
      }
      try {
        subcommand.run({ src, reply }, rest);
      } catch (error) {
        onError(`${ADMIN_COMMAND} ${subcommand.name} failed: ${String(error)}`);
        reply(`${ADMIN_COMMAND} ${subcommand.name} failed; see the server console`);
      }
    },
    true,
  );
}
