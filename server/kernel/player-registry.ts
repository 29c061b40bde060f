import { type ChatIdentifierResult, findChatIdentifier } from '../../shared/contract/index.js';

export interface PlayerSession {
  src: number;
  name: string;
  chat: ChatIdentifierResult;
  /** When the player last ran /dutyrefresh, for its cooldown. */
  lastRefreshAt: number | undefined;
}

/** Players the bridge knows, by server id; built from the identifiers FXServer reports at join. */
export class PlayerRegistry {
  private readonly sessions = new Map<number, PlayerSession>();
  /** The sessions of each chat account: a profile reaches them without a walk over everyone online. */
  private readonly byAccount = new Map<string, PlayerSession[]>();

  add(src: number, name: string, identifiers: readonly unknown[]): PlayerSession {
    const session: PlayerSession = { src, name, chat: findChatIdentifier(identifiers), lastRefreshAt: undefined };
    this.remove(src);
    this.sessions.set(src, session);
    if (session.chat.ok) this.byAccount.set(session.chat.chatId, [...this.sessionsOf(session.chat.chatId), session]);
    return session;
  }

  get(src: number): PlayerSession | undefined {
    return this.sessions.get(src);
  }

  remove(src: number): void {
    const session = this.sessions.get(src);
    if (!session) return;
    this.sessions.delete(src);
    if (!session.chat.ok) return;
    const { chatId } = session.chat;
    const others = this.sessionsOf(chatId).filter((other) => other !== session);
    if (others.length > 0) this.byAccount.set(chatId, others);
    else this.byAccount.delete(chatId);
  }

  /** The sessions of a chat account, oldest first (none: an empty list). */
  sessionsOf(chatId: string): readonly PlayerSession[] {
    return this.byAccount.get(chatId) ?? [];
  }

  chatId(src: number): string | undefined {
    const chat = this.sessions.get(src)?.chat;
    return chat?.ok ? chat.chatId : undefined;
  }

  all(): PlayerSession[] {
    return [...this.sessions.values()];
  }

  get size(): number {
    return this.sessions.size;
  }
}
