import type { StatusSnapshot } from '../../metrics/index.js';
import type { Subcommand } from './admin-command.js';
import { formatStatus } from './status-report.js';

/** `bridge status`: the panel, the budget, the queues, the outbox, the cache and who is on duty, at a glance. */
export function statusCommand(read: () => StatusSnapshot): Subcommand {
  return {
    name: 'status',
    usage: '',
    summary: 'panel reachability and latency, budget, queues per class, outbox, cache, players on duty',
    run({ reply }) {
      for (const line of formatStatus(read())) reply(line);
    },
  };
}
