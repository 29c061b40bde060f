// The `bridge:duty` state bag on `Player(src).state` (server) and `LocalPlayer.state` (client), and the on-duty
// counts on `GlobalState`, the same on both sides: client.d.ts and server.d.ts reference it.

interface StateBagInterface {
  /** Set by the bridge (replicated); absent until the player's first duty state. */
  'bridge:duty'?: import('./index').DutyStateBag;
  /** On `GlobalState`, set by the bridge (replicated): players on duty per department slug, and `total`. */
  'bridge:onDutyCount'?: import('./index').OnDutyCounts;
  /**
   * On `GlobalState`, set by the bridge (replicated): the same counts over every server of the community
   * (BRIDGE_REDIS_URL); this server's own without Redis.
   */
  'bridge:communityOnDutyCount'?: import('./index').OnDutyCounts;
}
