import { apiError } from './responses';

/** express.json()'s default limit, the real panel's most likely setting. */
export const MAX_BODY_BYTES = 100 * 1024;

export type JsonBodyResult = { ok: true; value: Record<string, unknown> } | { ok: false; response: Response };

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType?.endsWith('+json') === true;
}

/**
 * The body, or undefined as soon as it passes MAX_BODY_BYTES: a chunked body declares no length, and one that never
 * ends must be refused at the cap, not read whole first.
 */
async function readCapped(request: Request): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
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
  const bytes = await readCapped(request);
  if (bytes === undefined) return { ok: false, response: tooLarge };
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
