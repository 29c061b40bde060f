/**
 * What an `/api/leo` route reads of a request, whichever transport carried it: msw hands the panel a Fetch
 * `Request`, the node:http server an `IncomingMessage`, and building a Fetch Request per message costs more than the
 * panel's whole answer.
 */
export interface PanelRequest {
  /** Upper case for the methods Fetch normalizes, as sent otherwise. */
  readonly method: string;
  readonly pathname: string;
  /** As Fetch's `Headers.get` gives it: repeated fields joined with `, `, null when absent. */
  header(name: string): string | null;
  /** The socket's address, or the panel's in-process address under msw. */
  readonly clientIp: string;
  /** Aborts when the client goes away. Made on the first call: only a fault that holds the request waits on it. */
  signal(): AbortSignal;
  /** The body read chunk by chunk, or undefined as soon as it passes `limit` bytes (nothing more is read). */
  readBody(limit: number): Promise<Uint8Array | undefined>;
}

/** A JSON body as sent, with its bytes: built once, it answers any number of requests. */
export interface JsonBody {
  readonly text: string;
  readonly bytes: Buffer;
}

/** An HTTP answer: status, header pairs (one per name) and the body. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string | JsonBody;
  /**
   * A plain Fetch `Response` rather than msw's `HttpResponse` under msw: its status text stays empty, as a proxy's
   * page or a broken body had it.
   */
  readonly plain?: true;
  /** The answer to a HEAD: the headers (the length of the body included) are sent, the body is not. */
  readonly headOnly?: true;
}

/** The connection fails without an answer (`HttpResponse.error()` under msw, a reset socket over HTTP). */
export interface NetworkError {
  readonly networkError: true;
}

export type PanelAnswer = HttpAnswer | NetworkError;

export const NETWORK_ERROR: NetworkError = { networkError: true };

export function isNetworkError(answer: PanelAnswer): answer is NetworkError {
  return 'networkError' in answer;
}

function hasHeader(headers: readonly (readonly [string, string])[], name: string): boolean {
  for (const [other] of headers) {
    if (other.length === name.length && other.toLowerCase() === name.toLowerCase()) return true;
  }
  return false;
}

/** The answer with `headers` set over its own, as `Headers.set` would (names compared case-insensitively). */
export function withHeaders(answer: HttpAnswer, headers: readonly (readonly [string, string])[]): HttpAnswer {
  if (headers.length === 0) return answer;
  const kept = answer.headers.filter(([name]) => !hasHeader(headers, name));
  return { ...answer, headers: [...kept, ...headers] };
}

/** The body's text. */
export function bodyText(answer: HttpAnswer): string {
  return typeof answer.body === 'string' ? answer.body : answer.body.text;
}
