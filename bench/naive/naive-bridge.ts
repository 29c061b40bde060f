import { catchError, EMPTY, from, merge, mergeMap } from 'rxjs';
import type { BridgeRuntime, ServerPort } from '../../server/kernel/server-port.js';
import { readPanelSettings } from '../../server/kernel/settings.js';
import { createPanelTransport, type PanelExchange } from '../../server/panel/panel-client.js';
import { isTransient, type PanelResult } from '../../server/panel/panel-result.js';
import { type Department, findChatIdentifier } from '../../shared/contract/index.js';
import { type DutyOutcome, INTERNAL_EVENTS, type ProfilePayload, PUBLIC_EVENTS } from '../../shared/events.js';

/**
 * The baseline the benchmark measures the bridge against: the same client protocol and the same game rules (on
 * duty once the panel accepted, off duty at once), built the naive way. One request per event (a join, a client
 * asking for its profile, a duty change, each player's refresh timer), no shared budget, up to three immediate
 * retries on any transient failure, nothing kept across a restart.
 */
export function startNaiveBridge(port: ServerPort, runtime: BridgeRuntime, refreshIntervalMs = 300_000) {
  const settings = readPanelSettings((name) => port.convar(name));
  if (!settings.ok) throw new Error(settings.errors.join('; '));
  const transport = createPanelTransport({
    apiBase: settings.settings.apiBase,
    token: settings.settings.token,
    timeoutMs: 5_000,
    now: runtime.now,
  });
  const departments = new Map<number, Department[]>();
  const duty = new Map<number, { departmentId: number; rankId: number }>();
  const online = new Set<number>();

  async function withRetries<T>(call: () => Promise<PanelExchange<T>>): Promise<PanelResult<T>> {
    let result = (await call()).result;
    for (let retry = 0; retry < 3 && !result.ok && isTransient(result.failure); retry++) result = (await call()).result;
    return result;
  }

  const chatIdOf = (src: number) => {
    const chat = findChatIdentifier(port.playerIdentifiers(src));
    return chat.ok ? chat.chatId : undefined;
  };

  async function fetchProfile(src: number, send: boolean): Promise<void> {
    const chatId = chatIdOf(src);
    if (!chatId) return;
    const result = await withRetries(() => transport.getDepartments(chatId));
    if (result.ok) departments.set(src, result.value.departments);
    if (!send || !online.has(src)) return;
    const payload: ProfilePayload = result.ok
      ? {
          ok: true,
          chatId,
          departments: result.value.departments.map(({ id, slug, name, rank }) => ({ id, slug, name, rank })),
          fetchedAt: runtime.now(),
        }
      : { ok: false, error: 'panel_unavailable', message: result.failure.message };
    port.emitClient(PUBLIC_EVENTS.profile, src, payload);
    port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshot(src));
  }

  const snapshot = (src: number) => {
    const state = duty.get(src);
    return { onDuty: !!state, departmentId: state?.departmentId ?? null, rankId: state?.rankId ?? null, since: null };
  };

  async function refreshLoop(src: number): Promise<void> {
    while (online.has(src)) {
      await runtime.sleep(refreshIntervalMs);
      if (online.has(src)) await fetchProfile(src, true);
    }
  }

  function goOff(src: number): void {
    const state = duty.get(src);
    const chatId = chatIdOf(src);
    if (!state || !chatId) return;
    duty.delete(src);
    port.emitLocal(PUBLIC_EVENTS.playerOffDuty, src);
    // Fire and forget: when the retries fail, the panel never hears of it.
    void withRetries(() => transport.setDuty('off', { chatId, departmentId: state.departmentId }));
  }

  async function handleDuty(src: number, args: unknown[]): Promise<void> {
    const [requestId, on, departmentId] = args as [number, boolean, number | null];
    const answer = (outcome: DutyOutcome) => port.emitClient(INTERNAL_EVENTS.dutyResult, src, requestId, outcome);
    if (!on) {
      goOff(src);
      answer({ ok: true, changed: true, ...snapshot(src) });
      port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshot(src));
      return;
    }
    const department = departments.get(src)?.find((entry) => entry.id === departmentId);
    const chatId = chatIdOf(src);
    if (!department || !chatId) {
      answer({ ok: false, error: 'not_member', message: 'not a member' });
      return;
    }
    if (duty.has(src)) goOff(src);
    const result = await withRetries(() =>
      transport.setDuty('on', { chatId, departmentId: department.id, rankId: department.rank.id, serverId: src }),
    );
    if (!result.ok) {
      answer({ ok: false, error: 'panel_unavailable', message: result.failure.message });
      return;
    }
    duty.set(src, { departmentId: department.id, rankId: department.rank.id });
    port.emitLocal(PUBLIC_EVENTS.playerOnDuty, src, department.id, department.rank.id);
    answer({ ok: true, changed: true, ...snapshot(src) });
    port.emitClient(INTERNAL_EVENTS.dutyState, src, snapshot(src));
  }

  const safely = (work: () => Promise<void>) => from(work()).pipe(catchError(() => EMPTY));
  const subscription = merge(
    port.joins$.pipe(
      mergeMap((src) => {
        online.add(src);
        void refreshLoop(src);
        return safely(() => fetchProfile(src, false));
      }),
    ),
    port.clientReady$.pipe(mergeMap(({ src }) => safely(() => fetchProfile(src, true)))),
    port.refreshRequests$.pipe(mergeMap(({ src }) => safely(() => fetchProfile(src, true)))),
    port.dutyRequests$.pipe(mergeMap(({ src, args }) => safely(() => handleDuty(src, args)))),
    port.drops$.pipe(
      mergeMap(({ src }) =>
        safely(async () => {
          goOff(src);
          online.delete(src);
          departments.delete(src);
        }),
      ),
    ),
  ).subscribe();
  for (const src of port.connectedPlayers()) {
    online.add(src);
    void refreshLoop(src);
  }

  return {
    stop() {
      for (const src of [...duty.keys()]) goOff(src);
      subscription.unsubscribe();
    },
  };
}
