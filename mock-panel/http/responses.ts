import { HttpResponse } from 'msw';
import type { z } from 'zod';
import { ErrorBodySchema, type ErrorCode, errorStatus } from '../../shared/contract';

/** A JSON body as sent, with its length: built once, it answers any number of requests. */
export interface JsonBody {
  readonly text: string;
  readonly length: string;
}

/** A success body, parsed with its contract schema first so the mock can never answer off-contract. */
export function contractJson<Schema extends z.ZodType>(schema: Schema, body: z.input<Schema>): JsonBody {
  const text = JSON.stringify(schema.parse(body));
  return { text, length: String(Buffer.byteLength(text)) };
}

/** The answer `HttpResponse.json` gives for this body, without serializing it and measuring it again. */
export function jsonResponse(body: JsonBody, status = 200): Response {
  return new HttpResponse(body.text, {
    status,
    headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
  });
}

/** A success body, parsed with its contract schema first so the mock can never answer off-contract. */
export function respond<Schema extends z.ZodType>(schema: Schema, body: z.input<Schema>, status = 200): Response {
  return jsonResponse(contractJson(schema, body), status);
}

/** An error body with the status that belongs to its code. */
export function apiError(code: ErrorCode, message: string, field?: string): Response {
  const body = ErrorBodySchema.parse({ ok: false, error: code, message, ...(field === undefined ? {} : { field }) });
  return HttpResponse.json(body, { status: errorStatus(code) });
}
