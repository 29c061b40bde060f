/**
 * Just enough of RFC 8941 structured fields for the rate-limit headers: a list of members, each a bare item
 * (`200`, `"200-in-1min"`) followed by `; key=value` parameters, or (draft 7) a dictionary `limit=200, remaining=1`.
 * Values are read as numbers where they are numbers; anything else is kept as text and ignored by the callers.
 */
export interface FieldMember {
  /** The member's own value: a token, a quoted string without its quotes, or a number as text. */
  item: string;
  params: Map<string, string>;
}

const unquote = (value: string): string => {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
};

/** Splits on `separator` outside quoted strings. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

function parseMember(text: string): FieldMember {
  const [first = '', ...rest] = splitOutsideQuotes(text, ';');
  const params = new Map<string, string>();
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals === -1) params.set(param.toLowerCase(), '');
    else params.set(param.slice(0, equals).trim().toLowerCase(), unquote(param.slice(equals + 1)));
  }
  return { item: unquote(first), params };
}

/** `"a"; r=1; t=5, "b"; r=40; t=30` → two members; `200;w=60` → one member with item `200`. */
export function parseFieldList(value: string): FieldMember[] {
  return splitOutsideQuotes(value, ',').map(parseMember);
}

/** `limit=200, remaining=199, reset=60` → a map of lower-case keys to their values. */
export function parseFieldDictionary(value: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const member of splitOutsideQuotes(value, ',')) {
    const equals = member.indexOf('=');
    if (equals === -1) continue;
    entries.set(member.slice(0, equals).trim().toLowerCase(), unquote(member.slice(equals + 1).split(';')[0] ?? ''));
  }
  return entries;
}

/** A non-negative decimal number, or undefined for anything else (`abc`, `-1`, `1e400`, ``). */
export function nonNegativeNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : undefined;
}
