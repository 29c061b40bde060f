import { apiError } from './responses';

/** express.json()'s default limit, the real panel's most likely setting. */
export const MAX_BODY_BYTES = 100 * 1024;

export type JsonBodyResult = { ok: true; value: Record<string, unknown> } | { ok: false; response: Response };

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType?.endsWith('+json') === true;
}

/** Reads a request body that must be a JSON object, answering 415, 413 or 400 `invalid_json` when it is not. */
export async function readJsonObject(request: Request): Promise<JsonBodyResult> {
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    return {
      ok: false,
      response: apiError('unsupported_media_type', 'send the body as Content-Type: application/json'),
    };
  }
  const declaredLength = Number(request.headers.get('content-length') ?? 0);
  const tooLarge = apiError('payload_too_large', `the body may be at most ${MAX_BODY_BYTES} bytes`);
  if (declaredLength > MAX_BODY_BYTES) return { ok: false, response: tooLarge };
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) return { ok: false, response: tooLarge };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { ok: false, response: apiError('invalid_json', 'the body is not valid JSON') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, response: apiError('invalid_json', 'the body must be a JSON object') };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
