import { join } from 'node:path';

const STUBS = join(import.meta.dirname, '..', '..', '..', 'e2e', 'fixtures', 'stub_resources');

/** The stub resources of test/e2e/fixtures/stub_resources, under the names the bridge addresses them by. */
export const STUB_RESOURCES = {
  esx: { dir: join(STUBS, 'es_extended'), name: 'es_extended' },
  qbcore: { dir: join(STUBS, 'qb-core'), name: 'qb-core' },
  qbox: { dir: join(STUBS, 'qbx_core'), name: 'qbx_core' },
  oxCore: { dir: join(STUBS, 'ox_core'), name: 'ox_core' },
  rcorePolice: { dir: join(STUBS, 'rcore_police'), name: 'rcore_police' },
} as const;
