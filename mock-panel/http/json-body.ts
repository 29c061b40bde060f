import type { HttpAnswer, PanelRequest } from './panel-exchange';
import { apiErrorAnswer } from './responses';

/** express.json()'s default limit, the real panel's most likely setting. */
export const MAX_BODY_BYTES = 100 * 1024;

export type JsonBodyResult = { ok: true; value: Record<string, unknown> } | { ok: false; answer: HttpAnswer };

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType?.endsWith('+json') === true;
}

/**
 * Reads a request body that must be a JSON object, answering 415, 413 or 400 `invalid_json` when it is not. A chunked
 * body declares no length, and one that never ends is refused at the cap, not read whole first.
 */
export async function readJsonObject(request: Pick<PanelRequest, 'header' | 'readBody'>): Promise<JsonBodyResult> {
  if (!isJsonMediaType(request.header('content-type'))) {
    return {
      ok: false,
      answer: apiErrorAnswer('unsupported_media_type', 'send the body as Content-Type: application/json'),
    };
  }
  const declaredLength = Number(request.header('content-length') ?? 0);
  const tooLarge = apiErrorAnswer('payload_too_large', `the body may be at most ${MAX_BODY_BYTES} bytes`);
  if (declaredLength > MAX_BODY_BYTES) return { ok: false, answer: tooLarge };
  const bytes = await request.readBody(MAX_BODY_BYTES);
  if (bytes === undefined) return { ok: false, answer: tooLarge };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { ok: false, answer: apiErrorAnswer('invalid_json', 'the body is not valid JSON') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, answer: apiErrorAnswer('invalid_json', 'the body must be a JSON object') };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
