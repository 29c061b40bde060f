import {
  type DepartmentsAnswer,
  DepartmentsReadSchema,
  type DutyAction,
  type DutyAnswer,
  type DutyOffBody,
  type DutyOnBody,
  DutyReadSchema,
  departmentsPath,
  dutyPath,
  ErrorReadSchema,
  PanelAnswerReadSchema,
} from '../../shared/contract/index.js';
import type * as z from '../../shared/zod-mini.js';
import { createRedactor, type Redact } from '../kernel/index.js';
import {
  type AnswerSeen,
  describeUnreadable,
  type PanelFailure,
  type PanelFailureKind,
  type PanelResult,
} from './panel-result.js';
import { panelNow, retryAfterMs } from './rate-limit-headers.js';
import type { ProfileRequestClass } from './request-queues.js';

export interface PanelResponseInfo {
  method: 'GET' | 'POST';
  path: string;
  /** Undefined when no answer came (network error, timeout). */
  status: number | undefined;
  latencyMs: number;
  headers: Headers | undefined;
}

/** One request and what came back: the parsed result, and the raw facts the scheduler learns from. */
export interface PanelExchange<T> {
  result: PanelResult<T>;
  response: PanelResponseInfo;
}

export interface PanelTransportOptions {
  apiBase: string;
  token: string;
  timeoutMs: number;
  /** The monotonic clock, for latencies. */
  now?: () => number;
  /** The wall clock, only to read an HTTP-date `Retry-After` when the answer has no `Date` header. */
  wallNow?: () => number;
  fetch?: typeof fetch;
}

/** One HTTP request per call, nothing else: no budget, no queue. Only the request scheduler calls it. */
export interface PanelTransport {
  getDepartments(chatId: string): Promise<PanelExchange<DepartmentsAnswer>>;
  setDuty(action: DutyAction, body: DutyOnBody | DutyOffBody): Promise<PanelExchange<DutyAnswer>>;
}

export interface ProfileRequestOptions {
  /** The class the fetch waits in; a second caller with a higher class moves the shared request up. */
  priority?: ProfileRequestClass;
  /** Only an answer to a request sent after this call will do (see ScheduledRequest.fresh). */
  fresh?: boolean;
}

export interface DutyRequestOptions {
  /** Aborting takes a request out of the queue if it has not left yet (it then fails as `cancelled`). */
  signal?: AbortSignal;
  /** Called the moment the request leaves for the panel. */
  onSent?: () => void;
}

/** The panel as the rest of the bridge sees it: every call waits its turn in the request scheduler. */
export interface PanelClient {
  getDepartments(chatId: string, options?: ProfileRequestOptions): Promise<PanelResult<DepartmentsAnswer>>;
  setDuty(action: 'on', body: DutyOnBody, options?: DutyRequestOptions): Promise<PanelResult<DutyAnswer>>;
  setDuty(action: 'off', body: DutyOffBody, options?: DutyRequestOptions): Promise<PanelResult<DutyAnswer>>;
}

/**
 * How an answer is read: the contract's reading schema (what the bridge requires, nothing more), and for a duty
 * call the check of the answer against the call.
 */
interface Reader<T> {
  schema: z.ZodMiniType<T, unknown>;
  contradiction?: (value: T) => string | undefined;
}

// A panel answer is a few kilobytes; anything far larger is not a panel answer and is not buffered whole.
const MAX_BODY_BYTES = 1024 * 1024;

/** The kind of the panel's own refusal, by its status. */
const statusKind = (status: number): PanelFailureKind => {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'rejected';
};

/** Rejects when `signal` aborts: a body read has no deadline of its own. */
function untilAborted(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<never>((_, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    dispose = () => signal.removeEventListener('abort', onAbort);
  });
  return { promise, dispose };
}

const utf8 = new TextDecoder();

/** The body as text, or undefined once it grows past `limit` bytes: a stream is never buffered without bound. */
async function readBounded(body: ReadableStream<Uint8Array>, limit: number, deadline: AbortSignal) {
  const reader = body.getReader();
  const aborted = untilAborted(deadline);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted.promise]);
      if (done) return utf8.decode(Buffer.concat(chunks));
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => {});
    throw error;
  } finally {
    aborted.dispose();
  }
}

/** The body as far as it could be read: its text (undefined when too large) and, when it is JSON, its value. */
interface BodyRead {
  text: string | undefined;
  json?: unknown;
}

async function readBody(response: Response, deadline: AbortSignal): Promise<BodyRead> {
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) {
    await response.body?.cancel();
    return { text: undefined };
  }
  const text = response.body ? await readBounded(response.body, MAX_BODY_BYTES, deadline) : '';
  if (text === undefined) return { text };
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text };
  }
}

function retryAfterOf(headers: Headers, wallNowMs: number): { retryAfterMs?: number } {
  const wait = retryAfterMs(headers.get('retry-after'), panelNow(headers.get('date'), wallNowMs));
  return wait === undefined ? {} : { retryAfterMs: wait };
}

/** The panel's own refusal: its status says what kind, its body the code and message when it sent them. */
function failureFromPanel(status: number, json: unknown, headers: Headers, wallNowMs: number): PanelFailure {
  const body = ErrorReadSchema.safeParse(json);
  const failure: PanelFailure = {
    kind: status >= 200 && status < 300 ? 'rejected' : statusKind(status),
    status,
    message: (body.success && body.data.message) || `the panel answered ${status}`,
    ...retryAfterOf(headers, wallNowMs),
  };
  if (body.success && body.data.error !== undefined) failure.code = body.data.error;
  return failure;
}

/**
 * What a network error says, from undici's `fetch failed` down to its cause: the code (ECONNREFUSED) and the message,
 * or the messages of each address tried, since a host whose every address refused gives an AggregateError whose own
 * message is empty.
 */
function networkCause(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (!(cause instanceof Error)) return String(cause);
  const tried =
    cause instanceof AggregateError ? cause.errors.map((inner) => String((inner as Error)?.message ?? inner)) : [];
  const text = [...new Set([cause.message, ...tried].filter((message) => message !== ''))].join('; ') || cause.name;
  const code = (cause as { code?: unknown }).code;
  return typeof code !== 'string' || code === '' || cause.message.includes(code) ? text : `${code}: ${text}`;
}

/** The kind of an answer that is not the panel's own, by its status. */
function elsewhereKind(status: number): PanelFailureKind {
  if (status >= 500) return 'server_error';
  if (status === 429) return 'rate_limited';
  // A 2xx that is no panel answer is no profile, like a panel answer that does not match the contract.
  if (status >= 200 && status < 300) return 'invalid_response';
  return 'unreadable';
}

/**
 * An answer that is not the panel's own: a 5xx or a 429 is still that, whoever sent it; any other error status from
 * something in front of the panel says nothing about the request (`unreadable`, tried again like an outage).
 */
function failureFromElsewhere(seen: AnswerSeen, headers: Headers, wallNowMs: number, redact: Redact): PanelFailure {
  const message = `${describeUnreadable(seen, redact)}, not the panel's own answer`;
  const { status } = seen;
  return { kind: elsewhereKind(status), status, message, notThePanels: true, ...retryAfterOf(headers, wallNowMs) };
}

/** The one HTTP client of the bridge. It never throws: every outcome, network errors included, is a result. */
export function createPanelTransport(options: PanelTransportOptions): PanelTransport {
  const now = options.now ?? (() => performance.now());
  const wallNow = options.wallNow ?? (() => Date.now());
  // A failure's message reaches the console and the player (`panel_refused`): an upstream that echoes the request
  // headers must not put the token, or a piece of it, there.
  const redact = createRedactor(() => [options.token]);
  // Plain fetch, not ky: every part of ky the bridge could use is one it must not. Its timeout stops at the headers
  // (the deadline below covers the body too); its retries would spend the panel's shared budget unseen (the outbox
  // and the callers decide); its HTTPError and its json() would buffer a body of any size (readBody stops at 1 MiB).
  // What was left, a prefix and two headers, cost 14 KB of dist/server.js (docs/architecture.md, "The panel client").
  const base = options.apiBase.replace(/\/+$/, '');
  const authorization = `Bearer ${options.token}`;
  /** Without an injected fetch, the global one is looked up at each call, so a test's or an owner's patch applies. */
  const send = (path: string, method: 'GET' | 'POST', jsonText: string | undefined, signal: AbortSignal) =>
    (options.fetch ?? globalThis.fetch)(`${base}${path.startsWith('/') ? '' : '/'}${path}`, {
      method,
      headers:
        jsonText === undefined
          ? { authorization, accept: 'application/json' }
          : { authorization, accept: 'application/json', 'content-type': 'application/json' },
      ...(jsonText === undefined ? {} : { body: jsonText }),
      signal,
    });

  /** One request and its whole body, within RequestTimeoutMs. */
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    read: Reader<T>,
    json?: object,
  ): Promise<PanelExchange<T>> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('deadline')), options.timeoutMs);
    try {
      return await exchange(method, path, read, json, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  async function exchange<T>(
    method: 'GET' | 'POST',
    path: string,
    { schema, contradiction }: Reader<T>,
    json: object | undefined,
    signal: AbortSignal,
  ): Promise<PanelExchange<T>> {
    const started = now();
    let response: Response | undefined;
    const answer = (result: PanelResult<T>): PanelExchange<T> => ({
      result: result.ok
        ? result
        : { ok: false, failure: { ...result.failure, message: redact(result.failure.message) } },
      response: { method, path, status: response?.status, latencyMs: now() - started, headers: response?.headers },
    });
    const timedOut = () =>
      answer({ ok: false, failure: { kind: 'timeout', message: `no answer within ${options.timeoutMs} ms` } });
    try {
      response = await send(path, method, json ? JSON.stringify(json) : undefined, signal);
    } catch (error) {
      if (signal.aborted) return timedOut();
      return answer({
        ok: false,
        failure: { kind: 'network', message: `the panel cannot be reached (${networkCause(error)})` },
      });
    }
    let body: BodyRead;
    try {
      body = await readBody(response, signal);
    } catch (error) {
      if (signal.aborted) return timedOut();
      const reason = error instanceof Error ? error.message : String(error);
      return answer({
        ok: false,
        failure: { kind: 'network', status: response.status, message: `the answer broke off (${reason})` },
      });
    }
    const own = PanelAnswerReadSchema.safeParse(body.json);
    if (!own.success) {
      const seen = { status: response.status, contentType: response.headers.get('content-type'), ...body };
      return answer({ ok: false, failure: failureFromElsewhere(seen, response.headers, wallNow(), redact) });
    }
    if (!response.ok || !own.data.ok) {
      return answer({ ok: false, failure: failureFromPanel(response.status, body.json, response.headers, wallNow()) });
    }
    const parsed = schema.safeParse(body.json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'body';
      return answer({
        ok: false,
        failure: {
          kind: 'invalid_response',
          status: response.status,
          message: `the answer does not match the contract at ${where}: ${issue?.message ?? 'invalid'}`,
        },
      });
    }
    const contradicts = contradiction?.(parsed.data);
    if (contradicts !== undefined) {
      return answer({ ok: false, failure: { kind: 'contradicted', status: response.status, message: contradicts } });
    }
    return answer({ ok: true, value: parsed.data, status: response.status });
  }

  return {
    getDepartments: (chatId) => call('GET', departmentsPath(chatId), { schema: DepartmentsReadSchema }),
    setDuty: (action: DutyAction, body: DutyOnBody | DutyOffBody) =>
      call(
        'POST',
        dutyPath(action),
        { schema: DutyReadSchema, contradiction: (answer) => dutyAnswerContradiction(action, body, answer) },
        body,
      ),
  };
}

const place = (departmentId: number | null | undefined, rankId?: number | null) =>
  `department ${departmentId ?? 'none'}${rankId === undefined ? '' : ` rank ${rankId ?? 'none'}`}`;

/**
 * Why a duty answer contradicts the call it answers, or undefined when it does not. Only a duty state the panel
 * sent is compared, and only the fields it sent: `{ ok: true }` alone is a plain yes. An `off` that names a
 * department ends only a session there, so an answer still on duty elsewhere (a late retry after a switch) agrees.
 */
export function dutyAnswerContradiction(
  action: DutyAction,
  body: DutyOnBody | DutyOffBody,
  answer: DutyAnswer,
): string | undefined {
  const duty = answer.duty;
  if (!duty) return undefined;
  if (action === 'on') {
    const { departmentId, rankId } = body as DutyOnBody;
    const otherDepartment = typeof duty.departmentId === 'number' && duty.departmentId !== departmentId;
    const otherRank = typeof duty.rankId === 'number' && duty.rankId !== rankId;
    if (duty.onDuty === false) return `its answer says off duty where ${place(departmentId, rankId)} was asked`;
    if (otherDepartment || otherRank) {
      return `its answer names ${place(duty.departmentId, duty.rankId)} where ${place(departmentId, rankId)} was asked`;
    }
    return undefined;
  }
  const { departmentId } = body as DutyOffBody;
  if (duty.onDuty === true && (departmentId === undefined || duty.departmentId === departmentId)) {
    return `its answer says still on duty in ${place(duty.departmentId)} where off duty was asked`;
  }
  return undefined;
}
