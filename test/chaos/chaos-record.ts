// The record the chaos test keeps of a run (chaos-world.ts writes it, chaos-checks.ts reads it): what left each
// server, what Redis wrote, what the players did, and what the panel and the games hold at the end.
import type { OwnerWrite } from './redis-history.js';

/** A duty call as it left a server for the panel. */
export interface DutyCallRecord {
  server: number;
  action: 'on' | 'off';
  chatId: string;
  departmentId: number | undefined;
  /** When it left (µs on the machine's wall clock, Redis's clock too: one machine). */
  sentAtUs: number;
  /** The panel's status; 'failed' when no answer came; undefined while it is on its way. */
  status: number | 'failed' | undefined;
}

/** A duty change a player made, as the harness saw it through the server's answer. */
export interface GameChange {
  chatId: string;
  server: number;
  /** The session: its player id on that server, and which join of the run it was. */
  session: number;
  kind: 'on' | 'off';
  departmentId: number;
  /** What made it: a duty request, a player who left, or their server crashing under them. */
  cause: 'request' | 'drop' | 'crash';
  atUs: number;
}

/** A duty session of the mock panel's book (its times are ISO text, on the machine's clock). */
export interface PanelSession {
  chatId: string;
  departmentId: number;
  startedAt: string;
  endedAt: string | null;
}

export interface GameDuty {
  server: number;
  player: number;
  chatId: string;
  departmentId: number;
}

export interface ChaosRecord {
  /** Every duty session the panel has had, the open ones included. */
  panelSessions: readonly PanelSession[];
  /** The sessions on duty on the running servers, at quiescence. */
  gameDuties: readonly GameDuty[];
  calls: readonly DutyCallRecord[];
  writes: readonly OwnerWrite[];
  changes: readonly GameChange[];
}
