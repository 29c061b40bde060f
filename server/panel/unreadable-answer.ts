import type { Redact } from '../kernel/index.js';

/** What came back, as far as the bridge read it: the body as text (undefined: larger than a panel answer can be). */
export interface AnswerSeen {
  status: number;
  contentType: string | null;
  text: string | undefined;
  /** The body parsed, when it is JSON. */
  json?: unknown;
}

const TITLE = /<title[^>]*>([^<]*)<\/title>/i;

const quoted = (text: string, redact: Redact) => JSON.stringify(redact(text.trim()).slice(0, 60));

/**
 * An answer that is not the panel's own, in the owner's words: "an HTML 404 page ("404 Not Found")", "an empty 404
 * answer", "a 404 answer that is not JSON (text/plain): "…"", "a 404 answer of JSON without a boolean `ok`". What
 * was seen points at the cause: a proxy's page at a wrong `BRIDGE_API_BASE`, a panel being deployed.
 */
export function describeUnreadable({ status, contentType, text, json }: AnswerSeen, redact: Redact): string {
  if (text === undefined) return `a ${status} answer larger than a panel answer can be`;
  if (text.trim() === '') return `an empty ${status} answer`;
  if (json !== undefined) return `a ${status} answer of JSON without a boolean \`ok\``;
  const type = contentType ?? 'no content type';
  if (/html/i.test(type) || /^\s*</.test(text)) {
    const title = TITLE.exec(text)?.[1];
    return `an HTML ${status} page${title ? ` (${quoted(title, redact)})` : ''}`;
  }
  // Masked before the cut: a cut could leave a piece of the token too short to be recognised afterwards.
  return `a ${status} answer that is not JSON (${type}): ${quoted(text, redact)}`;
}
