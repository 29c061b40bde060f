// The dashboard in chromium (dashboard.test.ts) of two servers and one Redis.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis-server.js';
import { hasChromium, NO_CHROMIUM_MESSAGE } from './support/chromium.js';
import { ALEX, SCREENSHOTS, startDashboard, TOKEN, UI_WAIT_MS } from './support/dashboard.js';

if (!hasChromium) console.warn(NO_CHROMIUM_MESSAGE);

describe.skipIf(!hasChromium || !redisAvailable())('the dashboard of two servers and one Redis in chromium', () => {
  const JAMIE = { chatId: '1039284756102938475', name: 'Jamie Rivera' };
  const RILEY = { chatId: '417293856102947583', name: 'Riley Chen' };
  let dashboard: Awaited<ReturnType<typeof startDashboard>> | undefined;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    dashboard = await startDashboard({ token: TOKEN, port: 0, demoPlayers: [ALEX.chatId, JAMIE.chatId], servers: 2 });
    ({ page, pageErrors } = dashboard);
    await page.goto(`${dashboard.running.url}/`);
    await page.locator('#token').fill(TOKEN);
    await page.locator('#connect').click();
  }, 60_000);

  afterAll(() => dashboard?.close());

  const row = (server: number, id: number) =>
    page.locator(`#playground [data-server="${server}"][data-player-id="${id}"]`);
  const summary = (server: number) => page.locator('#community-servers li').nth(server - 1);

  it('shows both servers, their players and the Redis they share', async () => {
    await page.locator('#community').waitFor();
    expect(await page.locator('#community-redis').textContent()).toMatch(
      /^One community on the Redis at redis:\/\/127\.0\.0\.1:\d+\/0: one panel budget/,
    );
    await expect
      .poll(() => page.locator('#community-servers li').allTextContents(), { timeout: UI_WAIT_MS })
      .toEqual([
        expect.stringMatching(/^Server 1: 1 player, 0 on duty · its own counts: On duty: 0 in all/),
        expect.stringMatching(/^Server 2: 1 player, 0 on duty · its own counts: On duty: 0 in all/),
      ]);
    expect(await row(1, 1).locator('td').first().textContent()).toBe('S1 · 1');
    expect(await row(2, 1).locator('.player-name').textContent()).toBe(JAMIE.name);
    expect(await page.locator('#rate-limit .totals').textContent()).toMatch(
      /^\d+ requests since the start · 0 answered 429$/,
    );
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('puts a player of server 2 on duty, and both servers show the community’s count', async () => {
    await row(2, 1).locator('button.on-duty').click();
    await page.locator('#roster').getByText(JAMIE.name).waitFor();
    await expect
      .poll(() => page.locator('#duty-counts').textContent(), { timeout: UI_WAIT_MS })
      .toBe('On duty (the community): 1 in all · SAFR 1');
    for (const server of [1, 2]) {
      await expect
        .poll(() => summary(server).textContent(), { timeout: UI_WAIT_MS })
        .toContain('the community’s as it holds them: On duty: 1 in all · SAFR 1');
    }
    expect(await summary(2).textContent()).toContain(
      '1 player, 1 on duty · its own counts: On duty: 1 in all · SAFR 1',
    );
    await page.locator('#events').getByText('S2').first().waitFor();
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-two-servers.png'), fullPage: true });
    await row(2, 1).locator('button.off-duty').click();
    await page.locator('#roster').getByText('Nobody is on duty.').waitFor();
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('kills the Redis from the page and starts it again', async () => {
    await page.locator('#kill-redis').click();
    await expect
      .poll(() => page.locator('#playground-status').textContent(), { timeout: UI_WAIT_MS })
      .toBe('Redis killed (-9): each server now serves its own players alone.');
    await expect
      .poll(() => page.locator('#community-redis').textContent(), { timeout: UI_WAIT_MS })
      .toContain('(not running)');
    await page.locator('#console').getByText('(BRIDGE_REDIS_URL) is gone').first().waitFor();
    await page.locator('#start-redis').click();
    await page.locator('#console').getByText('(BRIDGE_REDIS_URL) answers again').first().waitFor();
    expect(await page.locator('#kill-redis').isVisible()).toBe(true);
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('joins a player on the server picked', async () => {
    await page.locator('#join-user').selectOption(RILEY.chatId);
    await page.locator('#join-server').selectOption('2');
    await page.locator('#join').click();
    await expect
      .poll(() => page.locator('#playground-status').textContent(), { timeout: UI_WAIT_MS })
      .toBe(`${RILEY.name} joined as player #2 on server 2.`);
    await row(2, 2).waitFor();
    expect(
      dashboard?.running.servers
        .server(2)
        .state()
        .players.map((p) => p.name),
    ).toEqual([JAMIE.name, RILEY.name]);
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });
});
