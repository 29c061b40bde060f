// What a player would see on screen, recorded for tests: feed notifications, help texts and subtitles (the text
// command natives of fivem-runtime.md §12), chat messages and suggestions, NUI messages, key mappings.
export interface Notification {
  readonly kind: 'feed' | 'help' | 'subtitle';
  readonly text: string;
}

export interface ChatSuggestion {
  readonly name: string;
  readonly help: string;
  readonly params: unknown[];
}

export class ClientData {
  readonly notifications: Notification[] = [];
  readonly chatMessages: unknown[] = [];
  readonly suggestions = new Map<string, ChatSuggestion>();
  readonly nuiMessages: { resource: string; data: string }[] = [];
  readonly keyMappings = new Map<string, { description: string; mapper: string; key: string }>();
  /** The text command being built (BeginTextCommand… → AddTextComponent… → EndTextCommand…). */
  private pending: { kind: Notification['kind']; parts: string[] } | null = null;

  beginText(kind: Notification['kind']): void {
    this.pending = { kind, parts: [] };
  }

  addText(text: string): void {
    this.pending?.parts.push(text);
  }

  endText(kind: Notification['kind']): void {
    const pending = this.pending ?? { kind, parts: [] };
    this.notifications.push({ kind, text: pending.parts.join('') });
    this.pending = null;
  }
}
