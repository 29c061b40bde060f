/**
 * A plain header's non-negative decimal number (`RateLimit-Remaining: 17`, `X-RateLimit-Reset: 1735689600`), or
 * undefined for anything else (`abc`, `-1`, `1e400`, ``). The legacy `X-RateLimit-*` headers are no RFC 8941
 * structured fields, so the single-number headers are all read as decimal text.
 */
export function nonNegativeNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : undefined;
}
