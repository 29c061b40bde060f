// The dashboard in Debian's chromium, driven by playwright-core: a tester connects with the token, puts a
// playground player on duty and off again, and sees the roster, the session history and the request log follow.
// The duty command and the two servers are in dashboard-duty.test.ts and dashboard-community.test.ts, so that
// the three run side by side.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPlayground } from '../../playground/start-playground.js';
import { hasChromium, NO_CHROMIUM_MESSAGE } from './support/chromium.js';
import { ALEX, SCREENSHOTS, startDashboard, TOKEN, UI_WAIT_MS } from './support/dashboard.js';

if (!hasChromium) console.warn(NO_CHROMIUM_MESSAGE);

describe.skipIf(!hasChromium)('the dashboard in chromium', () => {
  let dashboard: Awaited<ReturnType<typeof startDashboard>> | undefined;
  let running: RunningPlayground;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    // A short interval, as `npm start -- --refresh-interval 5s` sets it; no /dutyrefresh cooldown, so the role-change
    // test can refresh the same player twice. The wrong-token test makes the browser log its 401s; anything else
    // logged as an error is a defect.
    dashboard = await startDashboard(
      {
        token: TOKEN,
        port: 0,
        demoPlayers: [],
        refreshIntervalMs: 5_000,
        bridgeConfig: ['Config.RefreshCooldownMs = 0'],
      },
      (text) => text.includes('401'),
    );
    ({ running, page, pageErrors } = dashboard);
  }, 60_000);

  afterAll(() => dashboard?.close());

  async function connect(token: string): Promise<void> {
    await page.goto(`${running.url}/`);
    await page.locator('#token').fill(token);
    await page.locator('#connect').click();
  }

  const playerRow = (id: number) => page.locator(`#playground [data-player-id="${id}"]`);

  it('holds no token in its source, and refuses a wrong one with a clear message', async () => {
    const source = await (await fetch(`${running.url}/`)).text();
    const script = await (await fetch(`${running.url}/dashboard.js`)).text();
    expect(source).toContain('id="token"');
    expect(source + script).not.toContain(TOKEN);

    await connect('not-the-token');
    await expect.poll(() => page.getByText('The panel refused this token.').count(), { timeout: UI_WAIT_MS }).toBe(1);
    await expect(page.locator('#token').isVisible()).resolves.toBe(true);
  });

  it('connects, lists the users, and puts a joined player on duty and off again from the page', async () => {
    await connect(TOKEN);
    await page.locator('#users').getByText(ALEX.name).first().waitFor();
    expect(await page.content()).not.toContain(TOKEN);

    await page.locator('#join-user').selectOption(ALEX.chatId);
    await page.locator('#join').click();
    const row = playerRow(1);
    await row.waitFor();
    await expect.poll(() => row.locator('select.department option').count(), { timeout: UI_WAIT_MS }).toBe(2);

    await row.locator('select.department').selectOption('1');
    await row.locator('button.on-duty').click();
    const roster = page.locator('#roster');
    await roster.getByText(ALEX.name).waitFor();
    await roster.getByText('Los Santos Police Department').waitFor();
    await roster.getByText('Sergeant').waitFor();
    const requests = page.locator('#requests');
    await requests.getByText('/api/leo/duty/on').first().waitFor();
    await requests.getByText('/api/leo/user/284619375016482817/departments').first().waitFor();
    await page.locator('#events').getByText('bridge:server:playerOnDuty').first().waitFor();
    if (SCREENSHOTS) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-on-duty.png'), fullPage: true });
    }
    // The page shows what the panel holds: one open session for Alex in LSPD as Sergeant.
    expect(running.panel.controls.sessions(ALEX.chatId)).toMatchObject([
      { departmentId: 1, rankId: 2, endedAt: null, serverId: 1, playerName: ALEX.name },
    ]);

    await row.locator('button.off-duty').click();
    await roster.getByText('Nobody is on duty.').waitFor();
    await requests.getByText('/api/leo/duty/off').first().waitFor();
    await page.locator('#sessions').getByText(ALEX.name).first().waitFor();
    await page.locator('#events').getByText('bridge:server:playerOffDuty').first().waitFor();
    expect(running.panel.controls.sessions(ALEX.chatId)).toMatchObject([{ endedBy: 'off' }]);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-off-duty.png'), fullPage: true });
  });

  it("labels the bridge's start-up check in the request log and does not colour its expected 404 as an error", async () => {
    const check = page.locator('#requests tbody tr', { hasText: '/api/leo/user/000000000000000000/departments' });
    await check.first().waitFor();
    const status = check.first().locator('td').nth(3);
    expect(await status.textContent()).toBe('404 · start-up check');
    expect(await status.getAttribute('class')).toContain('status-expected');
    expect(await status.getAttribute('class')).not.toContain('status-warn');
    // A real lookup of an unknown user is still a 404 in the warning colour.
    const before = running.panel.controls.requests().length;
    await fetch(`${running.url}/api/leo/user/999999999999999999/departments`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(running.panel.controls.requests().length).toBe(before + 1);
    const unknown = page.locator('#requests tbody tr', { hasText: '/api/leo/user/999999999999999999/departments' });
    await unknown.first().waitFor();
    expect(await unknown.first().locator('td').nth(3).getAttribute('class')).toContain('status-warn');
  });

  it('says in the session history why each session ended', async () => {
    const ended = page.locator('#sessions tbody tr', { hasText: ALEX.name }).first();
    await ended.waitFor();
    expect(await ended.locator('td').nth(6).textContent()).toBe('off duty call · player request');
  });

  it('runs /dutyrefresh and drops a player from the page', async () => {
    const row = playerRow(1);
    const before = running.panel.controls.requests().length;
    await row.locator('button.refresh').click();
    await expect
      .poll(
        () =>
          running.panel.controls
            .requests()
            .slice(before)
            .map((r) => r.path),
        { timeout: UI_WAIT_MS },
      )
      .toContain(`/api/leo/user/${ALEX.chatId}/departments`);

    await row.locator('button.drop').click();
    await row.waitFor({ state: 'detached' });
    expect(running.playground.state().players).toEqual([]);
  });

  it('changes a user’s rank as /syncme would, and the panel answers with it', async () => {
    // Alex: LSPD Sergeant -> LSPD Lieutenant (rank 3).
    const user = page.locator('#users tr', { hasText: ALEX.name });
    await user.locator('select').first().selectOption({ label: 'Lieutenant' });
    await user.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(
        () =>
          running.panel.store.users
            .departmentsOf(running.panel.store.users.find(ALEX.chatId) as never)
            .map((d) => `${d.slug}:${d.rank.name}`),
        { timeout: UI_WAIT_MS },
      )
      .toEqual(['lspd:Lieutenant', 'bcso:Deputy']);
    await page.locator('#users').getByText('Lieutenant').first().waitFor();
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('follows a role change from the role editor: the list changes, one department stays selected, and "On duty" needs one', async () => {
    await page.locator('#join-user').selectOption(ALEX.chatId);
    await page.locator('#join').click();
    const row = page.locator('#playground tbody tr', { hasText: ALEX.name });
    const departments = row.locator('select.department');
    const listed = () => departments.locator('option').allTextContents();
    const onDuty = row.locator('button.on-duty');
    const roster = page.locator('#roster');
    // Joined within the interval of the rank change above, Alex may still see the cached Sergeant.
    await expect.poll(listed, { timeout: UI_WAIT_MS }).toEqual([expect.stringMatching(/^LSPD · /), 'BCSO · Deputy']);
    await departments.selectOption('2');
    await onDuty.click();
    await roster.getByText("Blaine County Sheriff's Office").waitFor();

    const user = page.locator('#users tr', { hasText: ALEX.name });
    /** Sets one department's rank in the role editor ('' for not a member) and applies it as /syncme would. */
    const applyRank = async (departmentId: number, rankId: string) => {
      await user.locator(`select.rank[data-department-id="${departmentId}"]`).selectOption(rankId);
      await user.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => page.locator('#users-status').textContent(), { timeout: UI_WAIT_MS }).toMatch(/^Alex/);
    };
    // Alex loses BCSO while on duty there: he goes off duty, and the list holds LSPD alone, selected.
    // No /dutyrefresh: the playground's open menu reads GetDutyOptions(), which revalidates a profile older than the
    // 5 s interval, and on duty the background revalidation ends the lost department's duty.
    await applyRank(2, '');
    await expect.poll(listed, { timeout: UI_WAIT_MS }).toEqual(['LSPD · Lieutenant']);
    await roster.getByText('Nobody is on duty.').waitFor();
    await expect.poll(() => departments.inputValue(), { timeout: UI_WAIT_MS }).toBe('1');
    // "On duty" goes on duty in LSPD: nothing of the lost BCSO stays selected (it failed with not_member).
    await onDuty.click();
    await roster.getByText('Los Santos Police Department').waitFor();
    await row.locator('button.off-duty').click();
    await roster.getByText('Nobody is on duty.').waitFor();

    // Alex loses LSPD too: nothing to select, and "On duty" is disabled.
    await applyRank(1, '');
    await expect.poll(listed, { timeout: UI_WAIT_MS }).toEqual(['no departments']);
    await expect.poll(() => onDuty.isDisabled(), { timeout: UI_WAIT_MS }).toBe(true);
    expect(await departments.isDisabled()).toBe(true);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-no-departments.png'), fullPage: true });
    expect(running.playground.state().players.find((p) => p.name === ALEX.name)).toMatchObject({
      departments: [],
      selectedDeptId: null,
    });
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });
});
