/** How long before a scheduled restart players on duty are told, in seconds: 5 minutes, then 1 minute. */
const NOTICES_AT_S = [300, 60] as const;

/**
 * Which of txAdmin's restart warnings (at 30, 15, 10, 5, 4, 3, 2 and 1 minutes, FxScheduler's scheduleWarnings) the
 * players on duty hear of: the first at or below each point of NOTICES_AT_S, once per restart. A bridge that started
 * late hears the next warning instead, once. A warning further away than the last one heard is a new restart.
 */
export class RestartNotices {
  private told = new Set<number>();
  private lastHeardS: number | undefined;

  /** A warning, `secondsRemaining` before the restart: whether the players on duty are told now. */
  heard(secondsRemaining: number): boolean {
    if (this.lastHeardS === undefined || secondsRemaining > this.lastHeardS) this.told = new Set();
    this.lastHeardS = secondsRemaining;
    let due = false;
    for (const at of NOTICES_AT_S) {
      if (secondsRemaining > at || this.told.has(at)) continue;
      this.told.add(at);
      due = true;
    }
    return due;
  }
}
