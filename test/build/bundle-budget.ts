import { statSync } from 'node:fs';
import { relative } from 'node:path';

/** FXServer parses the server bundle at every resource start; every game client downloads the client bundle. */
export const SERVER_BUNDLE_BUDGET_BYTES = 250 * 1024;
export const CLIENT_BUNDLE_BUDGET_BYTES = 30 * 1024;

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Why `file` is over its budget, naming where to find out what grew; undefined while it is within. */
export function overBudget(file: string, budgetBytes: number): string | undefined {
  const bytes = statSync(file).size;
  if (bytes <= budgetBytes) return undefined;
  return (
    `${relative(process.cwd(), file)} is ${kilobytes(bytes)} (${bytes} bytes), over its budget of ${kilobytes(budgetBytes)}. ` +
    "`npm run bundle-report` lists what it is made of by package, from esbuild's metafile, and keeps the metafile " +
    'for https://esbuild.github.io/analyze/'
  );
}
