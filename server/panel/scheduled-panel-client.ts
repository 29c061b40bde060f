import type { DutyAction, DutyOffBody, DutyOnBody } from '../../shared/contract/index.js';
import type { DutyRequestOptions, PanelClient, PanelTransport, ProfileRequestOptions } from './panel-client.js';
import type { RequestScheduler } from './request-scheduler.js';

/**
 * The panel client the bridge uses: the same calls as the transport, each waiting its turn in the scheduler.
 * A player's profile is fetched once at a time however many callers ask (single flight), and a duty call waits in
 * the duty class, which goes first.
 */
export function createScheduledPanelClient(transport: PanelTransport, scheduler: RequestScheduler): PanelClient {
  const setDuty = (action: DutyAction, body: DutyOnBody | DutyOffBody, options: DutyRequestOptions = {}) =>
    scheduler.submit({
      requestClass: 'duty',
      player: body.chatId,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onSent ? { onSent: options.onSent } : {}),
      send: () => transport.setDuty(action, body),
    });
  return {
    getDepartments: (chatId: string, { priority = 'waiting', fresh = false }: ProfileRequestOptions = {}) =>
      scheduler.submit({
        requestClass: priority,
        player: chatId,
        singleFlight: `departments:${chatId}`,
        fresh,
        send: () => transport.getDepartments(chatId),
      }),
    setDuty: setDuty as PanelClient['setDuty'],
  };
}
