import type { ResourcePort } from '../integration.js';

export const QBCORE_DUTY_EVENTS = {
  /** Server-local `(source, onDuty)`: what qb-core's own toggle (QBCore:ToggleDuty) fires, and scripts listen for. */
  server: 'QBCore:Server:SetDuty',
  /** To the player's client `(onDuty)`. */
  client: 'QBCore:Client:SetDuty',
} as const;

/**
 * Tells scripts that a player's duty changed the way qb-core's own toggle does: `SetJobDuty` alone fires only the
 * job update. Whoever said it last (qb-core's toggle, rcore_police in its QBCORE or QBOX duty mode, the bridge
 * itself) is remembered per player, so a state already announced is not announced twice.
 */
export class QbCoreDutyEvents {
  private readonly heard = new Map<number, boolean>();

  constructor(private readonly resources: ResourcePort) {
    resources.onLocal(QBCORE_DUTY_EVENTS.server, (src, onDuty) => {
      const id = Number(src);
      if (Number.isInteger(id) && typeof onDuty === 'boolean') this.heard.set(id, onDuty);
    });
  }

  announce(src: number, onDuty: boolean): void {
    if (this.heard.get(src) === onDuty) return;
    this.heard.set(src, onDuty);
    this.resources.emitLocal(QBCORE_DUTY_EVENTS.server, src, onDuty);
    this.resources.emitClient(QBCORE_DUTY_EVENTS.client, src, onDuty);
  }

  forget(src: number): void {
    this.heard.delete(src);
  }
}
