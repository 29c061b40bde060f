import ky, { type KyInstance, TimeoutError } from 'ky';
import type { z } from 'zod';
import {
  type DepartmentsResponse,
  DepartmentsResponseSchema,
  type DutyAction,
  type DutyOffBody,
  type DutyOnBody,
  type DutyResponse,
  DutyResponseSchema,
  departmentsPath,
  dutyPath,
  ErrorBodySchema,
} from '../../shared/contract/index.js';
import type { PanelFailure, PanelFailureKind, PanelResult } from './panel-result.js';

export interface PanelResponseInfo {
  method: 'GET' | 'POST';
  path: string;
  status: number | undefined;
  latencyMs: number;
  headers: Headers | undefined;
}

export interface PanelClientOptions {
  apiBase: string;
  token: string;
  timeoutMs: number;
  /** Every answer (or failure to get one), for the budget and the status report. */
  onResponse?: (info: PanelResponseInfo) => void;
  now?: () => number;
  fetch?: typeof fetch;
}

export interface PanelClient {
  getDepartments(chatId: string): Promise<PanelResult<DepartmentsResponse>>;
  setDuty(action: 'on', body: DutyOnBody): Promise<PanelResult<DutyResponse>>;
  setDuty(action: 'off', body: DutyOffBody): Promise<PanelResult<DutyResponse>>;
}

// A panel answer is a few kilobytes; anything far larger is not a panel answer and is not buffered whole.
const MAX_BODY_BYTES = 1024 * 1024;

const statusKind = (status: number): PanelFailureKind => {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'rejected';
};

const retryAfterMs = (headers: Headers): number | undefined => {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
};

async function readJson(response: Response): Promise<{ json?: unknown; error?: string }> {
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) {
    await response.body?.cancel();
    return { error: `the body is ${length} bytes, more than a panel answer can be` };
  }
  const text = await response.text();
  if (text.length > MAX_BODY_BYTES) return { error: 'the body is larger than a panel answer can be' };
  try {
    return { json: JSON.parse(text) };
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    return { error: `the body is not JSON (${type}): ${JSON.stringify(text.slice(0, 60))}` };
  }
}

function failureFromBody(status: number, json: unknown, headers: Headers): PanelFailure {
  const body = ErrorBodySchema.safeParse(json);
  const failure: PanelFailure = {
    kind: status >= 200 && status < 300 ? 'rejected' : statusKind(status),
    status,
    message: body.success ? body.data.message : `the panel answered ${status}`,
  };
  if (body.success) failure.code = body.data.error;
  const wait = retryAfterMs(headers);
  if (wait !== undefined) failure.retryAfterMs = wait;
  return failure;
}

/** The one HTTP client of the bridge. It never throws: every outcome, network errors included, is a result. */
export function createPanelClient(options: PanelClientOptions): PanelClient {
  const now = options.now ?? (() => performance.now());
  const http: KyInstance = ky.create({
    prefixUrl: options.apiBase,
    headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
    timeout: options.timeoutMs,
    throwHttpErrors: false,
    // No hidden retries: the outbox retries duty calls in order and callers decide when a read is worth repeating,
    // so every request spends the panel's shared budget knowingly.
    retry: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    json?: object,
  ): Promise<PanelResult<T>> {
    const started = now();
    const report = (status: number | undefined, headers: Headers | undefined) =>
      options.onResponse?.({ method, path, status, latencyMs: now() - started, headers });
    let response: Response;
    try {
      response = await http(path.replace(/^\//, ''), { method, ...(json ? { json } : {}) });
    } catch (error) {
      report(undefined, undefined);
      if (error instanceof TimeoutError) {
        return { ok: false, failure: { kind: 'timeout', message: `no answer within ${options.timeoutMs} ms` } };
      }
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
      return { ok: false, failure: { kind: 'network', message: `the panel cannot be reached (${cause})` } };
    }
    report(response.status, response.headers);
    let body: { json?: unknown; error?: string };
    try {
      body = await readJson(response);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        failure: { kind: 'network', status: response.status, message: `the answer broke off (${reason})` },
      };
    }
    if (body.error !== undefined) {
      const kind = response.ok ? 'invalid_response' : statusKind(response.status);
      return { ok: false, failure: { kind, status: response.status, message: body.error } };
    }
    if (!response.ok || (body.json as { ok?: unknown } | null)?.ok !== true) {
      return { ok: false, failure: failureFromBody(response.status, body.json, response.headers) };
    }
    const parsed = schema.safeParse(body.json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'body';
      return {
        ok: false,
        failure: {
          kind: 'invalid_response',
          status: response.status,
          message: `the answer does not match the contract at ${where}: ${issue?.message ?? 'invalid'}`,
        },
      };
    }
    return { ok: true, value: parsed.data, status: response.status };
  }

  return {
    getDepartments: (chatId) => call('GET', departmentsPath(chatId), DepartmentsResponseSchema),
    setDuty: (action: DutyAction, body: DutyOnBody | DutyOffBody) =>
      call('POST', dutyPath(action), DutyResponseSchema, body),
  };
}
