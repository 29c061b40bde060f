// dist/integrations.cjs: the job framework and rcore_police integrations (Config.Integrations), a CommonJS module of
// its own that server/integrations/load-integrations.ts loads only when the config turns one on
// (server/kernel/optional-module.ts says how and why). Everything it gets from dist/server.js and gives back is plain data and
// objects of functions.
export { createIntegrations } from './create-integrations.js';
