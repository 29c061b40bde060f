// `npm run deps` (part of `npm test`): the bridge's import rules. docs/architecture.md draws the slices.
// Type-only imports count everywhere: a type still ties two modules together, so neither can be read, moved or tested
// without the other.
const path = require('node:path');

/**
 * The server's slices, from the top down. A slice may import the slices after it, never one before it. `edge` is the
 * FiveM side and the composition root; `kernel` is what every slice may lean on (log, time, storage, config, the port).
 */
const SLICES = ['edge', 'metrics', 'community', 'duty', 'integrations', 'profiles', 'panel', 'kernel'];

const downward = SLICES.slice(1).map((slice, i) => ({
  name: `slice-direction-${slice}`,
  severity: 'error',
  comment: `server/${slice}/ sits below ${SLICES.slice(0, i + 1).join(', ')}: pass what it needs in from the edge, or move the shared type down.`,
  from: { path: `^server/${slice}/` },
  to: { path: `^server/(${SLICES.slice(0, i + 1).join('|')})/` },
}));

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
    ...downward,
    {
      name: 'slice-through-index',
      severity: 'error',
      comment: "Another slice's files are private: import its index.ts, and export what you need there.",
      from: { path: '^server/([^/]+)/' },
      to: { path: '^server/[^/]+/', pathNot: ['^server/$1/', '^server/[^/]+/index\\.ts$'] },
    },
    {
      name: 'slice-outside-root',
      severity: 'error',
      comment: 'Slices do not import the entry (server/main.ts) or any file beside it: it is the top.',
      from: { path: '^server/[^/]+/' },
      to: { path: '^server/[^/]+\\.ts$' },
    },
    {
      name: 'decide-is-pure',
      severity: 'error',
      comment:
        'server/duty/decide.ts is a pure function: no library (rxjs, ky, ...), no Node module, no FiveM, no clock. Give it values, take steps back.',
      from: { path: '^server/duty/decide\\.ts$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core', 'unknown'] },
    },
    {
      name: 'decide-imports-types-or-its-model',
      severity: 'error',
      comment:
        'server/duty/decide.ts takes only types from outside the duty model and shared/: a value it imports could bring a clock or a side effect.',
      from: { path: '^server/duty/decide\\.ts$' },
      to: {
        dependencyTypesNot: ['type-only'],
        pathNot: ['^server/duty/duty-model\\.ts$', '^shared/contract/'],
      },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.base.json') },
    doNotFollow: { path: 'node_modules' },
  },
};
