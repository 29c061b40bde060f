import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, after vitest's own summary: the form CI reads
 * to count tests whatever the runner.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = (state: 'passed' | 'failed' | 'skipped') =>
      testModules.reduce((sum, module) => sum + [...module.children.allTests(state)].length, 0);
    console.log(`\n${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`);
  }
}
