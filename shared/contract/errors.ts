import { withMeta } from '../with-meta.js';
import * as z from '../zod-mini.js';

/**
 * Every error code the panel answers with, its HTTP status and when it is used. One code has one status, so a
 * client can act on the code alone. Field codes (`invalid_<field>`) name the request-body field that failed and the
 * body carries that field's name in `field` as well.
 */
export const ERROR_CATALOGUE = {
  unauthorized: { status: 401, when: 'the Authorization header is missing or the bearer token is wrong' },
  malformed_chat_id: {
    status: 404,
    when: 'the chatId path parameter is not 18-19 ASCII digits; a 404 like an unknown user',
  },
  user_not_found: { status: 404, when: 'the chat id is well formed but the panel has no such user' },
  department_not_found: { status: 404, when: 'duty on: the departmentId is not a department of the panel' },
  not_found: { status: 404, when: 'no route under /api/leo has this path' },
  invalid_action: { status: 400, when: 'the duty action is neither `on` nor `off`' },
  invalid_json: { status: 400, when: 'the request body is not JSON or not a JSON object' },
  invalid_chat_id: { status: 400, when: 'body field `chatId` is missing or not 18-19 ASCII digits' },
  invalid_department_id: {
    status: 400,
    when: 'body field `departmentId` is missing (duty on) or not a positive integer',
  },
  invalid_rank_id: { status: 400, when: 'body field `rankId` is missing or not a positive integer' },
  invalid_server_id: { status: 400, when: 'body field `serverId` is not a positive integer' },
  invalid_player_name: { status: 400, when: 'body field `playerName` is not a string of 1 to 255 characters' },
  not_member: { status: 400, when: 'duty on: the user holds no member role of that department in the guild' },
  rank_mismatch: { status: 400, when: "duty on: the rankId is not the user's current rank in that department" },
  method_not_allowed: {
    status: 405,
    when: 'the path is a route of /api/leo but not for this method; the `Allow` header lists the methods it takes',
  },
  payload_too_large: { status: 413, when: 'the request body is larger than the panel accepts' },
  unsupported_media_type: { status: 415, when: 'a request body was sent without `Content-Type: application/json`' },
  rate_limited: { status: 429, when: 'the client IP used up its request budget for the current window' },
  internal_error: { status: 500, when: 'an unexpected server error; the body never carries a stack trace' },
  service_unavailable: { status: 503, when: 'the panel is down for maintenance (the mock panel: only when injected)' },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

const errorCodes = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

export const ErrorCodeSchema = withMeta(z.enum(errorCodes), {
  id: 'ErrorCode',
  description: `Stable machine-readable error code. ${errorCodes
    .map((code) => `\`${code}\` (${ERROR_CATALOGUE[code].status}): ${ERROR_CATALOGUE[code].when}.`)
    .join(' ')}`,
});

export const ErrorBodySchema = withMeta(
  z.object({
    ok: z.literal(false),
    error: ErrorCodeSchema,
    message: withMeta(z.string(), { description: 'Human-readable explanation; not meant to be parsed.' }),
    field: withMeta(z.optional(z.string()), {
      description: 'The request-body field that failed, for `invalid_<field>` codes.',
    }),
  }),
  { id: 'ErrorBody', description: 'Body of every non-2xx answer.' },
);

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** The code that names each request-body field of the duty endpoint. */
export const FIELD_ERROR_CODES = {
  chatId: 'invalid_chat_id',
  departmentId: 'invalid_department_id',
  rankId: 'invalid_rank_id',
  serverId: 'invalid_server_id',
  playerName: 'invalid_player_name',
} as const satisfies Record<string, ErrorCode>;

export type BodyField = keyof typeof FIELD_ERROR_CODES;

// ---- What the bridge reads. The spec promises a boolean `ok` in every body and shows no error shape: an answer with
// it is the panel's own, and of an error the bridge reads the code and the message when they are strings. ----

/** Read when present and a string, else counted as not sent. */
const stringIfSent = z.catch(z.optional(z.string()), undefined);

/**
 * The panel's own answer, whatever its status: a JSON object with a boolean `ok`. Anything else (a proxy's HTML page,
 * an empty body, text, JSON without a boolean `ok`) came from something in front of the panel, and says nothing
 * about the request.
 */
export const PanelAnswerReadSchema = z.object({ ok: z.boolean() });

/** An error as the bridge reads it: the panel's own answer with `ok: false`, and its code and message if sent. */
export const ErrorReadSchema = z.object({
  ok: ErrorBodySchema.shape.ok,
  error: stringIfSent,
  message: stringIfSent,
});
