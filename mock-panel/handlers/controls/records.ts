import { http } from 'msw';
import type { PanelControls } from '../../controls/panel-controls';
import { RequestLogResponseSchema, SessionsResponseSchema } from '../../controls/schemas';
import { respond } from '../../http/responses';
import type { PanelContext } from '../../panel-context';
import { routePredicate } from '../route-predicate';
import { CONTROL_PREFIX, chatIdParam, controlRoute } from './control-route';

/**
 * GET /__mock/sessions[?chatId=]   duty sessions, oldest first
 * GET /__mock/requests             the /api/leo request log, oldest first
 */
export function recordHandlers(context: PanelContext, controls: PanelControls, origin: string) {
  return [
    http.get(
      routePredicate(origin, `${CONTROL_PREFIX}/sessions`),
      controlRoute(context, async ({ request }) => {
        const chatId = new URL(request.url).searchParams.get('chatId') ?? undefined;
        // A chatId that is none would list nobody's sessions, which reads like "no sessions yet".
        const checked = chatId === undefined ? undefined : chatIdParam(chatId);
        if (checked && !checked.ok) return checked.response;
        return respond(SessionsResponseSchema, { ok: true, sessions: controls.sessions(chatId) });
      }),
    ),
    http.get(
      routePredicate(origin, `${CONTROL_PREFIX}/requests`),
      controlRoute(context, async () => respond(RequestLogResponseSchema, { ok: true, requests: controls.requests() })),
    ),
  ];
}
