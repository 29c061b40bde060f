export type { Community } from './community.js';
export { CommunityOnDutyCount } from './community-on-duty-count.js';
export { recordDutyOwners } from './duty-owner-record.js';
export { HeldForRedis } from './held-for-redis.js';
export { joinCommunity, LIVENESS_CONVAR, livenessMsOf, startCommunityRun } from './load-community.js';
