import type { DutyState } from '../../shared/contract';

export interface DutySession {
  id: number;
  chatId: string;
  departmentId: number;
  rankId: number;
  serverId: number | null;
  playerName: string | null;
  startedAt: string;
  /** null while the session is open. */
  endedAt: string | null;
  durationMs: number | null;
  /** `off`: the player went off duty; `switch`: they went on duty elsewhere or with another rank. */
  endedBy: 'off' | 'switch' | null;
}

export interface DutyOnRequest {
  chatId: string;
  departmentId: number;
  rankId: number;
  serverId?: number | undefined;
  playerName?: string | undefined;
}

export interface DutyChange {
  duty: DutyState;
  changed: boolean;
}

interface OpenSession {
  session: DutySession;
  startedAtMs: number;
}

/** Duty state per user and the sessions it produced. Both operations are idempotent so a client may retry them. */
export class DutyBook {
  private open = new Map<string, OpenSession>();
  private history: DutySession[] = [];
  private nextId = 1;

  constructor(private readonly now: () => number) {}

  stateOf(chatId: string): DutyState {
    const current = this.open.get(chatId)?.session;
    return {
      chatId,
      onDuty: current !== undefined,
      departmentId: current?.departmentId ?? null,
      rankId: current?.rankId ?? null,
      since: current?.startedAt ?? null,
    };
  }

  /** Same department and rank as in effect: nothing changes. Anything else ends the open session first. */
  goOn(request: DutyOnRequest): DutyChange {
    const current = this.open.get(request.chatId)?.session;
    if (current && current.departmentId === request.departmentId && current.rankId === request.rankId) {
      return { duty: this.stateOf(request.chatId), changed: false };
    }
    if (current) this.end(request.chatId, 'switch');
    const nowMs = this.now();
    const session: DutySession = {
      id: this.nextId++,
      chatId: request.chatId,
      departmentId: request.departmentId,
      rankId: request.rankId,
      serverId: request.serverId ?? null,
      playerName: request.playerName ?? null,
      startedAt: new Date(nowMs).toISOString(),
      endedAt: null,
      durationMs: null,
      endedBy: null,
    };
    this.open.set(request.chatId, { session, startedAtMs: nowMs });
    this.history.push(session);
    return { duty: this.stateOf(request.chatId), changed: true };
  }

  /** Off duty already, or on duty in another department than the one named: nothing changes. */
  goOff(chatId: string, departmentId?: number): DutyChange {
    const current = this.open.get(chatId)?.session;
    if (!current || (departmentId !== undefined && departmentId !== current.departmentId)) {
      return { duty: this.stateOf(chatId), changed: false };
    }
    this.end(chatId, 'off');
    return { duty: this.stateOf(chatId), changed: true };
  }

  /** Oldest first; copies, so callers cannot edit the record. */
  sessions(chatId?: string): DutySession[] {
    return this.history
      .filter((session) => chatId === undefined || session.chatId === chatId)
      .map((session) => ({ ...session }));
  }

  reset(): void {
    this.open.clear();
    this.history = [];
    this.nextId = 1;
  }

  private end(chatId: string, endedBy: 'off' | 'switch'): void {
    const open = this.open.get(chatId);
    if (!open) return;
    const nowMs = this.now();
    open.session.endedAt = new Date(nowMs).toISOString();
    open.session.durationMs = nowMs - open.startedAtMs;
    open.session.endedBy = endedBy;
    this.open.delete(chatId);
  }
}
