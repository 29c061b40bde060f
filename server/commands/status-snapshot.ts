import type { Settling } from '../community/duty-owner-api.js';
import type { Duty } from '../duty/duty.js';
import type { PlayerRegistry } from '../players/player-registry.js';
import type { BridgeRuntime } from '../server-port.js';
import type { StatusSnapshot } from './status-report.js';

export interface StatusSources {
  runtime: Pick<BridgeRuntime, 'now' | 'wallNow'>;
  players: Pick<PlayerRegistry, 'size'>;
  duty: Pick<Duty, 'onDutyPlayers'>;
  /** The panel's part; undefined when the bridge is not configured. */
  panelStatus: () => StatusSnapshot['panel'];
  cachedProfiles: () => number;
  /** With BRIDGE_REDIS_URL: what the community's duty owners still have to settle. */
  communitySettling?: () => Settling;
}

/** Reads what `bridge status` shows; the metrics endpoint reads the same, so both always agree. */
export const statusReader =
  ({ runtime, players, duty, panelStatus, cachedProfiles, communitySettling }: StatusSources) =>
  (): StatusSnapshot => ({
    now: runtime.now(),
    wallNow: runtime.wallNow(),
    panel: panelStatus(),
    community: communitySettling?.(),
    cachedProfiles: cachedProfiles(),
    playersOnline: players.size,
    playersOnDuty: duty.onDutyPlayers().length,
  });
