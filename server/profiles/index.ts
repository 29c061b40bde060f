export type { CommunityProfiles, ProfileEntry, ProfileUpdate, SharedProfile } from './profile.js';
export { PersistedProfileSchema, ProfileCache, tellLeftOutDepartment } from './profile-cache.js';
export { reconcileDuties, wireProfileSubscribers } from './profile-subscribers.js';
export { Profiles, payloadOf, shareProfilesWithCommunity } from './profiles.js';
export { announceShortRefreshInterval, OnDutyRevalidation, RevalidationAsks } from './refresh-policy.js';
