// The order vitest starts the test files in. Most of the longest files wait in real time: on a community on a real
// redis-server, on chromium, on CLI processes. Started first, they wait beside the files that keep the CPU busy, and
// none is left to run alone at the end. vitest orders by the timings of the last run, but a fresh clone has none, and
// then vitest starts the larger files first: these files are small, so they would run last.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that take longest, each mostly waiting: a pattern of their paths from the repository's root. */
const LONG_FILES = [
  /^test\/e2e\/community-/,
  /^test\/server\/community\//,
  /^test\/chaos\/chaos-seeds-/,
  /^test\/e2e\/clock-jumps\./,
  /^test\/browser\//,
  /^test\/(playground|mock-panel)\/cli/,
];

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLong = (file: TestSpecification) => {
      const path = relative(this.ctx.config.root, file.moduleId).replaceAll('\\', '/');
      return LONG_FILES.some((pattern) => pattern.test(path));
    };
    return [...sorted.filter(isLong), ...sorted.filter((file) => !isLong(file))];
  }
}
