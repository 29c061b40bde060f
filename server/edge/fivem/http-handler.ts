import type { HttpAnswer, HttpRequest } from '../../kernel/index.js';

/** FXServer's request as SetHttpHandler hands it over (natives docs, ResourceHttpComponent.cpp). */
interface FxRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
}

interface FxResponse {
  writeHead(status: number, headers?: Record<string, string | string[]>): void;
  send(body?: string): void;
}

const lowerCaseNames = (headers: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));

/**
 * Registers the resource's HTTP handler. The handler answers at once: FXServer keeps a request open until `send`,
 * so a throw still answers, with a 500, instead of leaving the scraper hanging.
 */
export function serveHttp(handler: (request: HttpRequest) => HttpAnswer): void {
  SetHttpHandler((request: FxRequest, response: FxResponse) => {
    let answer: HttpAnswer;
    try {
      answer = handler({
        path: String(request.path ?? '/'),
        method: String(request.method ?? 'GET').toUpperCase(),
        headers: lowerCaseNames(request.headers),
      });
    } catch {
      answer = { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'internal error\n' };
    }
    response.writeHead(answer.status, answer.headers);
    response.send(answer.body);
  });
}
