import type { MalformedMode } from '../controls/schemas';
import { bodyText, type HttpAnswer } from './panel-exchange';

const PROXY_ERROR_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

const droppedHeaders = new Set(['content-length', 'content-type']);

/**
 * The route's answer with its body broken the way a buggy panel or a proxy breaks it; status and headers stay, but
 * the length is no longer declared. `invalid_json`: the real JSON cut in half. `wrong_shape`: valid JSON,
 * `ok: true`, none of the endpoint's fields. `html`: a proxy's HTML error page.
 */
export function malformedAnswer(answer: HttpAnswer, mode: MalformedMode): HttpAnswer {
  let body: string;
  let contentType = 'application/json';
  if (mode === 'invalid_json') {
    const text = bodyText(answer);
    body = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  } else if (mode === 'wrong_shape') {
    body = JSON.stringify({ ok: true, result: 'unexpected' });
  } else {
    body = PROXY_ERROR_PAGE;
    contentType = 'text/html; charset=utf-8';
  }
  const kept = answer.headers.filter(([name]) => !droppedHeaders.has(name.toLowerCase()));
  return { status: answer.status, headers: [...kept, ['Content-Type', contentType]], body, plain: true };
}
