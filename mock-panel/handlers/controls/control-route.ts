import { HttpResponse } from 'msw';
import type { z } from 'zod';
import { ChatIdSchema } from '../../../shared/contract';
import { hasBearerToken } from '../../http/bearer-auth';
import { fetchBodyView } from '../../http/fetch-request-view';
import { readJsonObject } from '../../http/json-body';
import { apiError, malformedChatIdAnswer, responseOf, unauthorizedAnswer } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import type { RouteParams } from '../api/pipeline';

/** Route prefix of the tester controls: outside /api/leo, so they are neither rate-limited nor logged. */
export const CONTROL_PREFIX = '/__mock';

/** The protection space of the controls in their 401 challenge: the same token as /api/leo, another set of routes. */
export const CONTROL_REALM = '__mock';

type ControlRoute = (info: { request: Request; params: RouteParams }) => Promise<Response>;

/** Same token as /api/leo; exceptions become a 500 without a stack trace. */
export function controlRoute(context: PanelContext, route: ControlRoute) {
  return async (info: { request: Request; params: RouteParams }): Promise<Response> => {
    if (!hasBearerToken(info.request, context.token)) {
      return responseOf(unauthorizedAnswer(info.request.headers.get('authorization'), CONTROL_REALM));
    }
    try {
      return await route(info);
    } catch (error) {
      context.onUnexpectedError(error);
      return apiError('internal_error', 'the mock panel failed unexpectedly');
    }
  };
}

export type ControlBody<Schema extends z.ZodType> =
  | { ok: true; value: z.output<Schema> }
  | { ok: false; response: Response };

/** Parses a control body; a bad field answers 400 `invalid_control` naming it. */
export async function readControlBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<ControlBody<Schema>> {
  const body = await readJsonObject(fetchBodyView(request));
  if (!body.ok) return { ok: false, response: responseOf(body.answer) };
  const parsed = schema.safeParse(body.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || undefined;
  return { ok: false, response: controlError(`${field ?? 'body'}: ${issue?.message ?? 'invalid'}`, field) };
}

export function controlError(message: string, field?: string): Response {
  return HttpResponse.json(
    { ok: false, error: 'invalid_control', message, ...(field === undefined ? {} : { field }) },
    { status: 400 },
  );
}

/** A chat id the controls were given (a path or query parameter), checked and refused as /api/leo does. */
export function chatIdParam(value: unknown): { ok: true; chatId: string } | { ok: false; response: Response } {
  const checked = ChatIdSchema.safeParse(value);
  if (checked.success) return { ok: true, chatId: checked.data };
  return { ok: false, response: responseOf(malformedChatIdAnswer()) };
}
