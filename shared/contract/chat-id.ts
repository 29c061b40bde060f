import { withMeta } from '../with-meta.js';
import * as z from '../zod-mini.js';

/**
 * A chat-platform user id: ASCII digits only, 18 to 19 of them (spec, part 2).
 * `[0-9]` rather than `\d` so the rule reads the same in the OpenAPI pattern and in any regex dialect.
 */
export const ChatIdSchema = withMeta(
  z.string().check(z.regex(/^[0-9]{18,19}$/, 'a chat user id is 18 to 19 ASCII digits')),
  {
    id: 'ChatId',
    description: 'A chat-platform user id, 18 to 19 ASCII digits.',
    example: '284619375016482817',
  },
);

export type ChatId = z.infer<typeof ChatIdSchema>;

/** The in-game identifier of a player's chat account is `chat:<chat user id>`. */
export const CHAT_IDENTIFIER_PREFIX = 'chat:';

export type ChatIdentifierResult = { ok: true; chatId: ChatId } | { ok: false; reason: 'missing' | 'malformed' };

/**
 * Reads a chat id out of an in-game identifier such as `chat:284619375016482817`.
 * Nothing at all (null, undefined, '') is `missing`; anything else that is not exactly the prefix followed by a
 * valid chat id (other prefix, surrounding whitespace, unicode digits, wrong length) is `malformed`.
 */
export function parseChatIdentifier(identifier: unknown): ChatIdentifierResult {
  if (identifier === null || identifier === undefined || identifier === '') return { ok: false, reason: 'missing' };
  if (typeof identifier !== 'string' || !identifier.startsWith(CHAT_IDENTIFIER_PREFIX)) {
    return { ok: false, reason: 'malformed' };
  }
  const parsed = ChatIdSchema.safeParse(identifier.slice(CHAT_IDENTIFIER_PREFIX.length));
  return parsed.success ? { ok: true, chatId: parsed.data } : { ok: false, reason: 'malformed' };
}

/**
 * Picks the chat identifier out of all identifiers of a player (FiveM lists `license:`, `discord:`, `chat:`, ...).
 * No `chat:` entry is `missing`; a `chat:` entry with a bad id is `malformed`.
 */
export function findChatIdentifier(identifiers: readonly unknown[]): ChatIdentifierResult {
  const chatIdentifier = identifiers.find(
    (identifier) => typeof identifier === 'string' && identifier.startsWith(CHAT_IDENTIFIER_PREFIX),
  );
  return parseChatIdentifier(chatIdentifier);
}
