import { HttpResponse } from 'msw';
import { z } from 'zod';
import { ErrorBodySchema, type ErrorCode, errorStatus } from '../../shared/contract';
import { bearerChallenge, presentsBearer } from './bearer-auth';
import { type HttpAnswer, isNetworkError, type JsonBody, type PanelAnswer, withHeaders } from './panel-exchange';

/**
 * A success body, parsed with its contract schema first so the mock can never answer off-contract. The contract is
 * zod/mini (the bridge bundles it), which full zod parses through their shared core.
 */
export function contractJson<Schema extends z.core.$ZodType>(schema: Schema, body: z.input<Schema>): JsonBody {
  const text = JSON.stringify(z.parse(schema, body));
  return { text, bytes: Buffer.from(text) };
}

/** The answer `HttpResponse.json` gives for this body (its headers, its length), without serializing it again. */
export function jsonAnswer(body: JsonBody, status = 200): HttpAnswer {
  return {
    status,
    headers: [
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.bytes.byteLength)],
    ],
    body,
  };
}

/** A success answer, parsed with its contract schema first so the mock can never answer off-contract. */
export function contractAnswer<Schema extends z.core.$ZodType>(
  schema: Schema,
  body: z.input<Schema>,
  status = 200,
): HttpAnswer {
  return jsonAnswer(contractJson(schema, body), status);
}

/**
 * An error answer with the status that belongs to its code. A 401 carries the bearer challenge every HTTP client
 * expects with it (RFC 9110, section 11.6.1); the pipeline tells a client that sent a token that it is invalid.
 */
export function apiErrorAnswer(code: ErrorCode, message: string, field?: string): HttpAnswer {
  const answer = contractAnswer(
    ErrorBodySchema,
    { ok: false, error: code, message, ...(field === undefined ? {} : { field }) },
    errorStatus(code),
  );
  return answer.status === 401 ? withHeaders(answer, [['WWW-Authenticate', bearerChallenge(null)]]) : answer;
}

/** 405 `method_not_allowed` with `Allow` (RFC 9110, section 15.5.6): what the path takes, and what it was asked. */
export function methodNotAllowedAnswer(pathname: string, method: string, allow: readonly string[]): HttpAnswer {
  const methods = allow.join(', ');
  return withHeaders(apiErrorAnswer('method_not_allowed', `${pathname} takes ${methods}, not ${method}`), [
    ['Allow', methods],
  ]);
}

/**
 * The 401 for a request without the panel's token: a client that sent none is told what to send, one that sent a
 * wrong one that it is wrong (the challenge says the same to a client that reads only headers).
 */
export function unauthorizedAnswer(authorization: string | null, realm?: string): HttpAnswer {
  const message = presentsBearer(authorization)
    ? "the bearer token is not this panel's LEO_API_TOKEN"
    : 'no bearer token: send Authorization: Bearer <LEO_API_TOKEN>';
  return withHeaders(apiErrorAnswer('unauthorized', message), [
    ['WWW-Authenticate', bearerChallenge(authorization, realm)],
  ]);
}

const bodiesOf = new WeakMap<Response, Buffer>();

/** The Response msw sends for an answer. */
export function responseOf(answer: PanelAnswer): Response {
  if (isNetworkError(answer)) return HttpResponse.error();
  const { status, headers, body } = answer;
  const init = { status, headers: headers as [string, string][] };
  const text = answer.headOnly ? null : typeof body === 'string' ? body : body.text;
  const response = answer.plain ? new Response(text, init) : new HttpResponse(text, init);
  if (typeof body !== 'string' && !answer.headOnly) bodiesOf.set(response, body.bytes);
  return response;
}

/**
 * The bytes of a response made from a JSON answer, which the node:http server sends without reading the body stream
 * back (a Response's body can only be read through its stream, which costs more than building the answer did).
 */
export function knownBodyOf(response: Response): Buffer | undefined {
  return bodiesOf.get(response);
}

/** `jsonAnswer` as a Response. */
export function jsonResponse(body: JsonBody, status = 200): Response {
  return responseOf(jsonAnswer(body, status));
}

/** `contractAnswer` as a Response. */
export function respond<Schema extends z.core.$ZodType>(schema: Schema, body: z.input<Schema>, status = 200): Response {
  return responseOf(contractAnswer(schema, body, status));
}

/** `apiErrorAnswer` as a Response. */
/**
 * A chat id in a path or query that is not one: /api/leo's answer (shared/contract/README.md), which every control
 * gives too, so a tester meets one status and one sentence.
 */
export function malformedChatIdAnswer(): HttpAnswer {
  return apiErrorAnswer('malformed_chat_id', 'chatId must be 18 to 19 ASCII digits');
}

export function apiError(code: ErrorCode, message: string, field?: string): Response {
  return responseOf(apiErrorAnswer(code, message, field));
}
