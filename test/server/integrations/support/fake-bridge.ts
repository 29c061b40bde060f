import { vi } from 'vitest';
import type { DutyChange, DutyControl } from '../../../../server/integrations/integration.js';
import type { DutyEndReason } from '../../../../shared/events.js';
import { offDuty } from './duty-changes.js';
import type { FakeResources } from './fake-resources.js';

/** Whatever hears of the bridge's duty changes: one integration or all of them. */
interface Listener {
  dutyChanged(change: DutyChange): void;
}

/**
 * The bridge's side of an integration: who is on duty, and a DutyControl whose takeOffDuty does what the bridge
 * does (off duty at once, and the integrations told of it).
 */
export class FakeBridge {
  readonly onDuty = new Set<number>();
  listener: Listener | undefined;
  readonly takeOffDuty = vi.fn((src: number, reason: DutyEndReason) => {
    if (this.onDuty.delete(src)) this.listener?.dutyChanged(offDuty(src, reason));
  });
  readonly control: DutyControl = {
    isOnDuty: (src) => this.onDuty.has(src),
    takeOffDuty: this.takeOffDuty,
  };

  change(change: DutyChange): void {
    if (change.onDuty) this.onDuty.add(change.src);
    else this.onDuty.delete(change.src);
    this.listener?.dutyChanged(change);
  }
}

/**
 * rcore_police's duty bridge (its standalone mode): setPlayerDuty toggles the player's flag, then EnforceDuty sets
 * it and announces SetDuty, synchronously; a player's own toggle announces the flipped state.
 */
export function fakeRcorePolice(resources: FakeResources) {
  const states = new Map<number, boolean>();
  const announce = (id: number, state: boolean) => resources.dispatch('rcore_police:server:SetDuty', [id, state]);
  resources.start('rcore_police');
  resources.listen('rcore_police:server:setPlayerDuty', (id, state) => {
    if (resources.resourceState('rcore_police') !== 'started') return;
    const playerId = id as number;
    states.set(playerId, !states.get(playerId));
    states.set(playerId, state as boolean);
    announce(playerId, state as boolean);
  });
  return {
    states,
    /** The player's own toggle at an rcore_police duty point. */
    toggle(id: number) {
      const next = !states.get(id);
      states.set(id, next);
      announce(id, next);
    },
    inService: (id: number) => states.get(id) === true,
    restart() {
      resources.stop('rcore_police');
      states.clear();
      resources.start('rcore_police');
    },
  };
}
