import { en } from 'zod/locales';
import { config } from 'zod/mini';

// zod/mini sets no locale, so every issue would read "Invalid input". The bridge reports zod's messages to the owner
// (config problems, a panel answer or a kept record that does not read) in full zod's English. Every module that
// builds a schema imports zod/mini through this one, so no schema can parse before this has run.
config(en());

// Import it as `import * as z`: esbuild tree-shakes a namespace import to the schemas and checks it names, but keeps
// the whole of zod/mini (every locale included) behind a namespace that is re-exported as a value (`export * as z`).
export * from 'zod/mini';
