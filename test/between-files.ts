// Test files share workers without isolation (vitest.config.ts): whatever global state a file changes through vi
// is put back before the next file runs in the same worker.
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
