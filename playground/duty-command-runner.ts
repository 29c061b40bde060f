import { INTERNAL_EVENTS } from '../shared/events.js';
import type { Sim, SimPlayer } from '../sim/index.js';
import { chatLinesOf } from './server-view.js';

/** What a player saw after typing the duty command: new notifications and chat lines. */
export interface DutyCommandAnswer {
  command: string;
  notifications: string[];
  chat: string[];
}

/**
 * Types the bridge's duty command in a player's chat, as the player would, and waits for what it brings: the
 * command may answer at once (a list in chat, a department the player lacks) or send duty requests, each answered by
 * the server. Counted by listeners rather than the simulator's event log, which the playground trims.
 */
export class DutyCommandRunner {
  private readonly requests = new Map<number, number>();
  private readonly results = new Map<number, number>();

  constructor(
    private readonly sim: Sim,
    readonly command: string,
  ) {
    sim.on(INTERNAL_EVENTS.dutyRequest, (_args, source) => this.count(this.requests, Number(source)));
  }

  /** A player joined: their client's answers are counted from now on. */
  watch(player: SimPlayer): void {
    player.on(INTERNAL_EVENTS.dutyResult, () => this.count(this.results, player.id));
  }

  forget(id: number): void {
    this.requests.delete(id);
    this.results.delete(id);
  }

  async run(
    player: SimPlayer,
    args: string,
    until: (done: () => boolean, what: string) => Promise<void>,
  ): Promise<DutyCommandAnswer> {
    const line = `/${this.command} ${args}`.trim();
    const before = {
      requests: this.requests.get(player.id) ?? 0,
      results: this.results.get(player.id) ?? 0,
      notifications: player.notifications.length,
      chat: player.chat.messages.length,
    };
    player.command(line);
    await this.sim.settle();
    const made = (this.requests.get(player.id) ?? 0) - before.requests;
    await until(() => (this.results.get(player.id) ?? 0) - before.results >= made, `the answer to ${line}`);
    await this.sim.settle();
    return {
      command: line,
      notifications: player.notifications.slice(before.notifications).map((notification) => notification.text),
      chat: chatLinesOf(player).slice(before.chat),
    };
  }

  private count(counts: Map<number, number>, id: number): void {
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
}
