import type { Subcommand } from './admin-command.js';

/**
 * `bridge release` (BRIDGE_REDIS_URL): the duty calls held because Redis cannot confirm them are sent without the
 * confirmation. For an owner whose Redis stays down: it says what that risks (an `off` may end a shift the account
 * opened on another server since), and the console gets one WARN.
 */
export function releaseCommand(releaseHeld: () => number): Subcommand {
  return {
    name: 'release',
    usage: '',
    summary: 'send the duty calls held for Redis without its confirmation (an off may end a shift on another server)',
    run({ reply }) {
      const count = releaseHeld();
      reply(
        count === 0
          ? 'no duty call is held for Redis'
          : `released ${count} duty call(s) held for Redis; they are sent now without its confirmation: an off among them may end a shift the account opened on another server since`,
      );
    },
  };
}
