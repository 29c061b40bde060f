import { HttpResponse } from 'msw';
import { z } from 'zod';
import { ErrorBodySchema, type ErrorCode, errorStatus } from '../../shared/contract';

/** A JSON body as sent, with its bytes: built once, it answers any number of requests. */
export interface JsonBody {
  readonly text: string;
  readonly bytes: Buffer;
}

/**
 * A success body, parsed with its contract schema first so the mock can never answer off-contract. The contract is
 * zod/mini (the bridge bundles it), which full zod parses through their shared core.
 */
export function contractJson<Schema extends z.core.$ZodType>(schema: Schema, body: z.input<Schema>): JsonBody {
  const text = JSON.stringify(z.parse(schema, body));
  return { text, bytes: Buffer.from(text) };
}

const bodiesOf = new WeakMap<Response, Buffer>();

/** The answer `HttpResponse.json` gives for this body, without serializing it and measuring it again. */
export function jsonResponse(body: JsonBody, status = 200): Response {
  const response = new HttpResponse(body.text, {
    status,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.bytes.byteLength) },
  });
  bodiesOf.set(response, body.bytes);
  return response;
}

/**
 * The bytes of a response made by `jsonResponse`, which the node:http server sends without reading the body stream
 * back (a Response's body can only be read through its stream, which costs more than building the answer did).
 */
export function knownBodyOf(response: Response): Buffer | undefined {
  return bodiesOf.get(response);
}

/** A success body, parsed with its contract schema first so the mock can never answer off-contract. */
export function respond<Schema extends z.core.$ZodType>(schema: Schema, body: z.input<Schema>, status = 200): Response {
  return jsonResponse(contractJson(schema, body), status);
}

/** An error body with the status that belongs to its code. */
export function apiError(code: ErrorCode, message: string, field?: string): Response {
  const body = ErrorBodySchema.parse({ ok: false, error: code, message, ...(field === undefined ? {} : { field }) });
  return HttpResponse.json(body, { status: errorStatus(code) });
}
