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
  /**
   * `off`: the player went off duty; `switch`: they went on duty elsewhere or with another rank; `deleted`: the user
   * was deleted (the tester control).
   */
  endedBy: 'off' | 'switch' | 'deleted' | null;
  /**
   * Why the game server ended it, when a host that sees the game side reported it (noteEndReason: the playground).
   * The `off` call itself does not say: the contract's off body names only the player and the department.
   */
  reportedReason?: string;
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
  /** Reasons reported for an open session before its `off` call arrived, by chat id. */
  private pendingReasons = new Map<string, { departmentId: number; reason: string }>();

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

  /** The user was deleted: their open session ends with them. Returns it, or undefined when none was open. */
  endDeleted(chatId: string): DutySession | undefined {
    const open = this.open.get(chatId)?.session;
    if (!open) return undefined;
    this.end(chatId, 'deleted');
    return { ...open };
  }

  /** Oldest first; copies, so callers cannot edit the record. */
  sessions(chatId?: string): DutySession[] {
    return this.history
      .filter((session) => chatId === undefined || session.chatId === chatId)
      .map((session) => ({ ...session }));
  }

  /**
   * Records why the game server ended (or is ending) the user's session in a department. The `off` call and the game's
   * own report arrive in either order: an open session keeps the reason until its `off`, an ended one takes it at once.
   * A session a new `on` replaced keeps no reported reason: the panel's own `switch` says why.
   */
  noteEndReason(chatId: string, departmentId: number, reason: string): void {
    const open = this.open.get(chatId)?.session;
    if (open?.departmentId === departmentId) {
      this.pendingReasons.set(chatId, { departmentId, reason });
      return;
    }
    const ended = this.history.findLast(
      (session) =>
        session.chatId === chatId &&
        session.departmentId === departmentId &&
        session.endedBy === 'off' &&
        session.reportedReason === undefined,
    );
    if (ended) ended.reportedReason = reason;
  }

  reset(): void {
    this.pendingReasons.clear();
    this.open.clear();
    this.history = [];
    this.nextId = 1;
  }

  private end(chatId: string, endedBy: Exclude<DutySession['endedBy'], null>): void {
    const open = this.open.get(chatId);
    if (!open) return;
    const nowMs = this.now();
    open.session.endedAt = new Date(nowMs).toISOString();
    open.session.durationMs = nowMs - open.startedAtMs;
    open.session.endedBy = endedBy;
    const pending = this.pendingReasons.get(chatId);
    this.pendingReasons.delete(chatId);
    if (endedBy === 'off' && pending?.departmentId === open.session.departmentId) {
      open.session.reportedReason = pending.reason;
    }
    this.open.delete(chatId);
  }
}
