import {
  type DeptDataPayload,
  type DutyErrorCode,
  type DutyOptions,
  type DutyOutcome,
  type DutySnapshot,
  INTERNAL_EVENTS,
  type OffDutyPayload,
  type ProfilePayload,
  PUBLIC_EVENTS,
} from '../shared/events.js';
import type { MessageKey } from '../shared/locale.js';
import { TOKEN_CONVAR } from '../shared/token-exposure.js';
import type { ClientPort } from './client-port.js';
import { registerDutyCommand } from './duty-command/register-duty-command.js';
import { createPlayerMessages, profileMessageKey } from './player-messages.js';
import { createRevalidation } from './profile-revalidation.js';
import { type ClientSettings, clientSettings } from './settings.js';
import { tokenProof } from './token-proof.js';

export type { DutyOptionDepartment, DutyOptions } from '../shared/events.js';

type DutyCallback = (outcome: DutyOutcome) => void;

const OFF: DutySnapshot = { onDuty: false, departmentId: null, rankId: null, since: null };

const OFF_DUTY_MESSAGE: Record<OffDutyPayload['reason'], MessageKey> = {
  request: 'off_duty',
  resource_stop: 'off_duty',
  department_removed: 'off_duty_department_removed',
  account_removed: 'off_duty_account_removed',
  admin: 'off_duty_admin',
  replaced: 'off_duty_replaced',
  superseded: 'off_duty_superseded',
  server_shutdown: 'off_duty_server_shutdown',
  kicked: 'off_duty',
  banned: 'off_duty',
};

/**
 * Why going on duty needs a department first: the player has none (the panel lists no department role for them, or
 * does not know them: /syncme is the fix), the profile is not there to choose from, or a menu has yet to choose
 * between several.
 */
function missingSelection(
  profile: ProfilePayload | undefined,
): 'no_departments' | 'profile_unavailable' | 'no_department_selected' {
  if (profile?.ok) return profile.departments.length === 0 ? 'no_departments' : 'no_department_selected';
  return profile?.error === 'not_registered' ? 'no_departments' : 'profile_unavailable';
}

function readSettings(port: ClientPort): ClientSettings {
  try {
    return clientSettings(port.readConfig());
  } catch (error) {
    port.log(`config.lua could not be read on the client (${String(error)}); using English messages`);
    return clientSettings(undefined);
  }
}

/**
 * The client half: the spec's exports, the client events, a notification for every outcome, /dutyrefresh, and the
 * duty command when the owner turned it on.
 */
export function startBridgeClient(port: ClientPort) {
  const settings = readSettings(port);
  const { say, text } = createPlayerMessages(port, settings);
  let profile: ProfilePayload | undefined;
  let duty: DutySnapshot = OFF;
  let selectedDeptId: number | null = null;
  // The department of the current duty, kept apart from the profile: a refresh that removes it arrives first.
  let dutyDepartment: DeptDataPayload | undefined;
  let nextRequestId = 1;
  const pending = new Map<number, DutyCallback>();
  const revalidation = createRevalidation({
    intervalMs: settings.refreshIntervalMs,
    now: () => port.now(),
    ask: () => port.emitServer(INTERNAL_EVENTS.revalidateRequest),
  });

  // The selection is always one of the departments GetDutyOptions() lists: a profile that is not ok lists none.
  const grants = (departmentId: number | null) =>
    profile?.ok === true && profile.departments.some((d) => d.id === departmentId);

  const departmentName = (id: number | null) =>
    (dutyDepartment?.departmentId === id ? dutyDepartment.name : undefined) ??
    (profile?.ok ? profile.departments.find((d) => d.id === id)?.name : undefined) ??
    text('department_fallback', { id });

  // The server's message is for logs; the player (and a menu showing it) reads the owner's wording.
  const inPlayerWords = (outcome: DutyOutcome): DutyOutcome =>
    outcome.ok ? outcome : { ...outcome, message: text(outcome.error, { detail: outcome.message }) };

  const reply = (callback: unknown, outcome: DutyOutcome) => {
    if (typeof callback !== 'function') return;
    try {
      callback(outcome);
    } catch (error) {
      // A Lua callback of a resource that restarted is a dead reference; the outcome was shown anyway.
      port.log(`the UpdatePlayerDuty callback failed: ${String(error)}`);
    }
  };

  function getDutyOptions(): DutyOptions {
    const base = { selectedDeptId, onDuty: duty.onDuty };
    if (profile) revalidation.used();
    if (!profile) return { ok: false, error: 'loading', message: text('loading'), departments: [], ...base };
    if (!profile.ok) {
      return {
        ok: false,
        error: profile.error,
        message: text(profileMessageKey(profile.error)),
        departments: [],
        ...base,
      };
    }
    return {
      ok: true,
      departments: profile.departments.map(({ id, slug, name, rank }) => ({
        id,
        slug,
        name,
        rank: { id: rank.id, name: rank.name },
        setActive: () => {
          selectedDeptId = id;
          return true;
        },
      })),
      ...base,
    };
  }

  function updatePlayerDuty(status: unknown, callback?: unknown): boolean {
    const on = status === true || status === 1 ? true : status === false || status === 0 ? false : undefined;
    const refuse = (error: DutyErrorCode, key: MessageKey) => {
      say(key);
      reply(callback, { ok: false, error, message: text(key) });
      return false;
    };
    if (on === undefined) return refuse('invalid_request', 'invalid_status');
    // A player with one department has nothing to choose: the server export SetPlayerDuty takes it too.
    const only = profile?.ok && profile.departments.length === 1 ? profile.departments[0]?.id : undefined;
    const departmentId = selectedDeptId ?? only ?? null;
    if (on && departmentId === null) {
      const problem = missingSelection(profile);
      return refuse(problem, problem);
    }
    const requestId = nextRequestId++;
    pending.set(requestId, (outcome) => reply(callback, outcome));
    port.emitServer(INTERNAL_EVENTS.dutyRequest, requestId, on, on ? departmentId : null);
    return true;
  }

  port.registerExport('IsPlayerOnDuty', () => duty.onDuty);
  port.registerExport('GetDutyOptions', getDutyOptions);
  port.registerExport('UpdatePlayerDuty', updatePlayerDuty);

  port.onServer(PUBLIC_EVENTS.profile, (payload) => {
    const next = payload as ProfilePayload;
    const newError = !next.ok && (profile === undefined || profile.ok || profile.error !== next.error);
    profile = next;
    revalidation.arrived();
    if (selectedDeptId !== null && !grants(selectedDeptId)) selectedDeptId = null;
    if (newError && !next.ok) say(profileMessageKey(next.error));
  });

  port.onServer(INTERNAL_EVENTS.dutyState, (snapshot) => {
    duty = snapshot as DutySnapshot;
    // A refresh sends the new profile before the duty it ends: the duty state in between still names the removed
    // department, which must not become the selection again (the next "On duty" would be refused as not_member).
    if (duty.onDuty && (grants(duty.departmentId) || profile === undefined)) selectedDeptId = duty.departmentId;
  });

  port.onServer(PUBLIC_EVENTS.deptData, (payload) => {
    const department = payload as DeptDataPayload;
    const wasOnDutyHere = duty.onDuty && duty.departmentId === department.departmentId;
    dutyDepartment = department;
    if (wasOnDutyHere) return;
    say('on_duty', { department: department.name, rank: department.rank.name });
  });

  port.onServer(PUBLIC_EVENTS.offDuty, (payload) => {
    const info = payload as OffDutyPayload;
    say(OFF_DUTY_MESSAGE[info.reason] ?? 'off_duty', { department: departmentName(info.departmentId) });
  });

  port.onServer(INTERNAL_EVENTS.dutyResult, (requestId, outcome) => {
    const callback = pending.get(requestId as number);
    pending.delete(requestId as number);
    const result = outcome as DutyOutcome;
    if (!result.ok) say(result.error, { detail: result.message });
    else if (!result.changed) {
      say(result.onDuty ? 'already_on_duty' : 'already_off_duty', { department: departmentName(result.departmentId) });
    }
    callback?.(inPlayerWords(result));
  });

  // A client must not be able to read the token. If the owner replicated it anyway, this proves it without sending
  // it, so the server can warn. Trimmed as the server trims the value it uses.
  port.onServer(INTERNAL_EVENTS.tokenCheck, (nonce) => {
    if (typeof nonce !== 'string') return;
    const readable = port.replicatedConvar(TOKEN_CONVAR).trim();
    if (readable !== '') port.emitServer(INTERNAL_EVENTS.tokenProof, nonce, tokenProof(readable, nonce));
  });

  port.onServer(INTERNAL_EVENTS.notify, (key, params) => say(String(key), (params ?? {}) as Record<string, unknown>));

  // `/dutyrefresh <id>` is a supervisor's: the server checks the sender's ACE and does the rest.
  port.registerCommand(
    'dutyrefresh',
    text('dutyrefresh_help'),
    ([target]) =>
      target === undefined
        ? port.emitServer(INTERNAL_EVENTS.refreshRequest)
        : port.emitServer(INTERNAL_EVENTS.refreshOtherRequest, target),
    [{ name: 'id', help: text('dutyrefresh_id_help') }],
  );

  if (settings.dutyCommand.enabled) {
    registerDutyCommand(
      port,
      settings.dutyCommand,
      { say, text },
      {
        getDutyOptions,
        updatePlayerDuty,
        onDutyIn: () => (duty.onDuty ? duty.departmentId : null),
      },
    );
  }

  port.emitServer(INTERNAL_EVENTS.clientReady);

  return { getDutyOptions, updatePlayerDuty, isPlayerOnDuty: () => duty.onDuty };
}
