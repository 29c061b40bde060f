/**
 * What `Config.RefreshIntervalMs` accepts and its default. Apart from the config schema so the client bundle, which
 * carries no zod, reads the same bounds as the server and the playground's --refresh-interval.
 */
export const REFRESH_INTERVAL_RANGE_MS = { min: 1_000, max: 86_400_000 } as const;
export const DEFAULT_REFRESH_INTERVAL_MS = 300_000;
