import type { Duty } from '../../duty/index.js';
import type { BridgeRuntime, PlayerRegistry } from '../../kernel/index.js';
import type { StatusSnapshot } from '../../metrics/index.js';

export interface StatusSources {
  runtime: Pick<BridgeRuntime, 'now' | 'wallNow'>;
  players: Pick<PlayerRegistry, 'size'>;
  duty: Pick<Duty, 'onDutyPlayers'>;
  /** The panel's part; undefined when the bridge is not configured. */
  panelStatus: () => StatusSnapshot['panel'];
  /** The community's part; undefined when the bridge is not configured. */
  communityStatus: () => StatusSnapshot['community'];
  cachedProfiles: () => number;
}

/** Reads what `bridge status` shows; the metrics endpoint reads the same, so both always agree. */
export const statusReader =
  ({ runtime, players, duty, panelStatus, communityStatus, cachedProfiles }: StatusSources) =>
  (): StatusSnapshot => ({
    now: runtime.now(),
    wallNow: runtime.wallNow(),
    panel: panelStatus(),
    community: communityStatus(),
    cachedProfiles: cachedProfiles(),
    playersOnline: players.size,
    playersOnDuty: duty.onDutyPlayers().length,
  });
