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

  add(src: number, name: string, identifiers: readonly unknown[]): PlayerSession {
    const session: PlayerSession = { src, name, chat: findChatIdentifier(identifiers), lastRefreshAt: undefined };
    this.sessions.set(src, session);
    return session;
  }

  get(src: number): PlayerSession | undefined {
    return this.sessions.get(src);
  }

  remove(src: number): void {
    this.sessions.delete(src);
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
