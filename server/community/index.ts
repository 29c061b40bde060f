export type { Community } from './community.js';
export { CommunityOnDutyCount } from './community-on-duty-count.js';
export { startCommunityRun } from './community-run.js';
export { recordDutyOwners } from './duty-owner-record.js';
export { HeldForRedis } from './held-for-redis.js';
export { LIVENESS_CONVAR, livenessMsOf } from './liveness-convar.js';
export { joinCommunity } from './load-community.js';
