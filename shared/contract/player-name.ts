import type * as z from '../zod-mini.js';
import { DutyOnBodySchema } from './duty.js';

const maxLength = DutyOnBodySchema.shape.playerName.def.innerType.def.checks?.find(
  (check): check is z.core.$ZodCheckMaxLength => check._zod.def.check === 'max_length',
);
/**
 * The longest `playerName` the contract accepts. Names are cut to this many UTF-16 code units: zod counts code points
 * (a pair as one), a panel in JS may count `.length`, and a name this long is within either reading.
 */
export const PLAYER_NAME_MAX_LENGTH = maxLength?._zod.def.maximum ?? Number.POSITIVE_INFINITY;

// Unicode's control characters (Cc): C0 U+0000-U+001F, DEL and C1 U+007F-U+009F. A newline or an escape sequence in
// a name has no place in the panel's records.
const CONTROL_CHARACTERS = /\p{Cc}/gu;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The player's name as the duty `on` body may carry it: control characters removed, trimmed, cut to the limit
 * without splitting a character in two, or undefined (the field left out) when nothing is left. FiveM takes the name
 * from the player's own client, so it can be anything, and a name must never cost a player their duty.
 */
export function panelPlayerName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  let cleaned = name.replace(CONTROL_CHARACTERS, '').trim();
  if (cleaned.length > PLAYER_NAME_MAX_LENGTH) {
    let end = PLAYER_NAME_MAX_LENGTH;
    if (isHighSurrogate(cleaned.charCodeAt(end - 1))) end -= 1;
    cleaned = cleaned.slice(0, end).trimEnd();
  }
  return cleaned === '' ? undefined : cleaned;
}
