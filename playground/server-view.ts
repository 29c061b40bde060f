import { ON_DUTY_COUNT_KEY } from '../shared/events.js';
import type { Sim, SimPlayer } from '../sim/index.js';

/**
 * `GlobalState['bridge:onDutyCount']` (`{ [slug]: n, total: n }`, the live counts the bridge publishes for other
 * resources), or the same shape under another key (the community's counts), as the server holds it, or null while
 * nothing (or nothing of that shape) is published.
 */
export function onDutyCountOf(sim: Sim, key = ON_DUTY_COUNT_KEY): Record<string, number> | null {
  const value = sim.stateBag('global')[key];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const counts = Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
  return counts.length > 0 ? Object.fromEntries(counts) : null;
}

/** A chat message as the chat window shows it: `author: text` for the usual `{ args = { author, text } }`. */
export function chatLine(message: unknown): string {
  const args = (message as { args?: unknown } | null)?.args;
  if (Array.isArray(args))
    return args
      .map(String)
      .filter((part) => part !== '')
      .join(': ');
  return JSON.stringify(message);
}

export const chatLinesOf = (player: SimPlayer): string[] => player.chat.messages.map(chatLine);
