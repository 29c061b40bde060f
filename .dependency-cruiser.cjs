// `npm run deps` (part of `npm test`): no import cycle in the bridge's own code. Type-only imports count: a cycle of
// types still ties two modules together so neither can be read, moved or tested without the other.
const path = require('node:path');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move what both sides share into a module of its own, or pass it in.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.base.json') },
    doNotFollow: { path: 'node_modules' },
  },
};
