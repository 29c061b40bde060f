import type { Logger } from '../kernel/index.js';
import { errorText } from '../kernel/index.js';
import type { DutyChange, DutyControl, Integration, ResourcePort } from './integration.js';

export const RCORE_POLICE = 'rcore_police';
export const RCORE_EVENTS = {
  /** Server-local, to rcore_police: force a player's duty `(playerId, state)`. */
  setPlayerDuty: 'rcore_police:server:setPlayerDuty',
  /** Server-local, from rcore_police: fired on every duty change it makes `(playerId, state)`. */
  dutyChanged: 'rcore_police:server:SetDuty',
} as const;

export interface RcorePoliceOptions {
  resources: ResourcePort;
  duty: DutyControl;
  logger: Logger;
  /**
   * Whether the bridge is applying its own change to this player right now. Meanwhile what rcore_police announces
   * for them is noted but not acted on: a job the bridge just set may make rcore_police reset its duty, and the
   * bridge sets rcore_police's duty itself right after.
   */
  isApplying?: (src: number) => boolean;
}

const playerId = (value: unknown): number | undefined => {
  const src = Number(value);
  return Number.isInteger(src) && src > 0 ? src : undefined;
};

/**
 * Keeps rcore_police's duty in step with the bridge's, both ways, without a loop:
 * - the bridge's changes are passed on with `setPlayerDuty`, unless rcore_police already has that state;
 * - going OFF duty inside rcore_police takes the player off duty in the bridge (and so in the panel);
 * - going ON duty inside rcore_police while off duty in the bridge is set back, since duty starts with a department
 *   chosen in the bridge and a call to the panel;
 * - rcore_police answers every setPlayerDuty with SetDuty; that echo of the bridge's own call is recognised and
 *   ignored, and an announcement that agrees with the bridge needs nothing either.
 */
export function createRcorePoliceIntegration(options: RcorePoliceOptions): Integration {
  const { resources, duty, logger } = options;
  const isApplying = options.isApplying ?? (() => false);
  /** rcore_police's duty per player, as it last announced it or was told. */
  const known = new Map<number, boolean>();
  /** The state being forced on a player right now: its echo arrives while setPlayerDuty is still being dispatched. */
  const forcing = new Map<number, boolean>();

  const running = (): boolean => {
    const state = resources.resourceState(RCORE_POLICE);
    if (state === 'started') {
      logger.forget('integrations:rcore_police:not_running');
      return true;
    }
    logger.once(
      'integrations:rcore_police:not_running',
      'warn',
      `Config.Integrations.RcorePolice is on, but rcore_police is ${state}: duty is not passed on until it is started`,
    );
    return false;
  };

  const force = (src: number, state: boolean) => {
    known.set(src, state);
    forcing.set(src, state);
    try {
      resources.emitLocal(RCORE_EVENTS.setPlayerDuty, src, state);
    } finally {
      forcing.delete(src);
    }
  };

  const announced = (src: number, state: boolean) => {
    known.set(src, state);
    if (forcing.get(src) === state || isApplying(src)) return;
    const inBridge = duty.isOnDuty(src);
    if (state === inBridge) return;
    if (!state) {
      logger.info(`player ${src} went off duty in rcore_police: taking them off duty`);
      duty.takeOffDuty(src, 'request');
      return;
    }
    logger.info(`player ${src} went on duty in rcore_police without a department: setting rcore_police back off`);
    force(src, false);
  };

  resources.onLocal(RCORE_EVENTS.dutyChanged, (rawSrc, rawState) => {
    const src = playerId(rawSrc);
    if (src === undefined || typeof rawState !== 'boolean') {
      logger.debug(`ignored ${RCORE_EVENTS.dutyChanged} with (${String(rawSrc)}, ${String(rawState)})`);
      return;
    }
    try {
      announced(src, rawState);
    } catch (error) {
      logger.once(
        'integrations:rcore_police:announcement_failed',
        'warn',
        `could not follow rcore_police's duty change of player ${src}: ${errorText(error)}`,
      );
    }
  });
  // A restarted rcore_police starts with nobody on duty.
  resources.onLocal('onResourceStop', (name) => {
    if (name === RCORE_POLICE) known.clear();
  });

  return {
    name: 'rcore_police',
    dutyChanged(change: DutyChange) {
      // rcore_police clears a leaving player's duty itself (rcore_police:server:playerUnloaded).
      if (change.reason === 'dropped') return;
      if (known.get(change.src) === change.onDuty || !running()) return;
      force(change.src, change.onDuty);
    },
    playerDropped(src: number) {
      known.delete(src);
    },
  };
}
