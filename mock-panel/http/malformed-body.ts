import type { MalformedMode } from '../controls/schemas';

const PROXY_ERROR_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

/**
 * The route's answer with its body broken the way a buggy panel or a proxy breaks it; status and headers stay.
 * `invalid_json`: the real JSON cut in half. `wrong_shape`: valid JSON, `ok: true`, none of the endpoint's fields.
 * `html`: a proxy's HTML error page.
 */
export async function malformedResponse(response: Response, mode: MalformedMode): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  let body: string;
  if (mode === 'invalid_json') {
    const text = await response.text();
    body = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    headers.set('Content-Type', 'application/json');
  } else if (mode === 'wrong_shape') {
    body = JSON.stringify({ ok: true, result: 'unexpected' });
    headers.set('Content-Type', 'application/json');
  } else {
    body = PROXY_ERROR_PAGE;
    headers.set('Content-Type', 'text/html; charset=utf-8');
  }
  return new Response(body, { status: response.status, headers });
}
