// The dashboard tests' shared start: a playground with its mock panel and a chromium page on its dashboard.
import { join } from 'node:path';
import { startPlaygroundWithPanel } from '../../../playground/start-playground.js';
import { REPO_ROOT } from '../../e2e/support/world.js';
import { launchChromium } from './chromium.js';

export const TOKEN = 'browser-test-token-4b1d9e07c2';
// `UPDATE_SCREENSHOTS=1 npx vitest run test/browser` refreshes the ones docs/testing.md shows.
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS ? join(REPO_ROOT, 'docs', 'screenshots') : undefined;
export const ALEX = { chatId: '284619375016482817', name: 'Alex Mercer' };
export const UI_WAIT_MS = 15_000;

/** A playground and a chromium page on its dashboard, collecting what the page reports as errors. */
export async function startDashboard(
  options: Parameters<typeof startPlaygroundWithPanel>[0],
  expectedError: (text: string) => boolean = () => false,
) {
  const running = await startPlaygroundWithPanel(options);
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  page.setDefaultTimeout(UI_WAIT_MS);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectedError(message.text())) pageErrors.push(message.text());
  });
  return {
    running,
    page,
    pageErrors,
    close: async () => {
      await browser.close();
      await running.close();
    },
  };
}
