import type { Duty } from '../duty/index.js';
import type { Logger, PlayerRegistry } from '../kernel/index.js';
import type { Profiles } from '../profiles/index.js';

/** What `startBridgeServer` hands back, configured or inert: the parts the runtime adapter and the tests reach. */
export interface BridgeServer {
  readonly logger: Logger;
  readonly players: PlayerRegistry;
  readonly duty: Duty;
  readonly profiles: Profiles;
  /** Resolves once the start-up probe has answered (immediately when not configured). */
  readonly ready: Promise<void>;
  /** The resource is stopping: everyone on duty goes off duty now; the panel calls wait in KVP if need be. */
  stop(): void;
  /** Entries held per player or chat account, by where they are held: all zero once everyone has left. */
  footprint(): Record<string, number>;
}
