import type { IncomingMessage } from 'node:http';
import { getResponse, type HttpHandler } from 'msw';
import { type ApiEndpoint, apiEndpointOf } from '../handlers/api/api-handler';
import { fetchRequestView } from '../http/fetch-request-view';
import type { PanelAnswer } from '../http/panel-exchange';
import type { ClientGone } from './client-gone';
import { toFetchRequest } from './fetch-adapter';
import { NodeRequest, socketClientIp } from './node-exchange';

type Step = { endpoint: ApiEndpoint } | { handlers: HttpHandler[] };

export interface Exchange {
  message: IncomingMessage;
  /** The request's URL on the server's own origin. */
  url: URL;
  clientGone: ClientGone;
}

/**
 * The first answer of `handlers`, tried in order as msw's `getResponse` tries them: an `/api/leo` route
 * (api-handler.ts) is served from the node message itself, every other run of handlers gets a Fetch Request through
 * `getResponse` (made only when one is asked, as the panel's own controls come after its `/api/leo` routes). Undefined when no handler answers.
 */
export function handlerDispatch(
  handlers: readonly HttpHandler[],
): (exchange: Exchange) => Promise<PanelAnswer | Response | undefined> {
  const steps: Step[] = [];
  for (const handler of handlers) {
    const endpoint = apiEndpointOf(handler);
    const last = steps.at(-1);
    if (endpoint) steps.push({ endpoint });
    else if (last && 'handlers' in last) last.handlers.push(handler);
    else steps.push({ handlers: [handler] });
  }
  return async ({ message, url, clientGone }) => {
    let request: Request | undefined;
    for (const step of steps) {
      if ('handlers' in step) {
        request ??= await toFetchRequest(message, url.origin, clientGone.signal());
        const response = await getResponse(step.handlers, request);
        if (response) return response;
        continue;
      }
      const { match, serve } = step.endpoint;
      const matched = match(url);
      if (!matched) continue;
      // Once msw was asked, the body belongs to the Request it was given (msw tees its stream): read it there.
      const view = request
        ? fetchRequestView(request, socketClientIp(message))
        : new NodeRequest(message, url, clientGone);
      return await serve(view, matched.params);
    }
    return undefined;
  };
}
