import { describe, expect, it } from 'vitest';
import { javaScriptBundles } from '../../scripts/bundle-report.js';
import tsupConfigs from '../../tsup.config.js';

describe('npm run bundle-report', () => {
  it('reports the server bundle, its optional modules (dist/redis.cjs, dist/metrics.cjs, dist/integrations.cjs) and the client bundle, and not the declaration-only build of types/index.d.ts', () => {
    expect(javaScriptBundles(tsupConfigs).map((config) => config.entry)).toEqual([
      { server: 'server/main.ts' },
      { redis: 'server/community/community-entry.ts' },
      { metrics: 'server/metrics/metrics-entry.ts' },
      { integrations: 'server/integrations/integrations-entry.ts' },
      { client: 'client/main.ts' },
    ]);
  });
});
