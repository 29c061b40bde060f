import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderOpenApiJson } from '../shared/contract/openapi';

// npm run openapi: regenerates the committed docs/openapi.json from the zod contract.

const OPENAPI_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

writeFileSync(OPENAPI_FILE, renderOpenApiJson());
console.log(`wrote ${OPENAPI_FILE}`);
