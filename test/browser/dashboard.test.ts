// The dashboard in Debian's chromium, driven by playwright-core: a tester connects with the token, puts a
// playground player on duty and off again, and sees the roster, the session history and the request log follow.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPlayground, startPlaygroundWithPanel } from '../../playground/start-playground.js';
import { REPO_ROOT } from '../e2e/support/world.js';
import { redisAvailable } from '../support/redis-server.js';
import { hasChromium, launchChromium, NO_CHROMIUM_MESSAGE } from './support/chromium.js';

const TOKEN = 'browser-test-token-4b1d9e07c2';
// `UPDATE_SCREENSHOTS=1 npx vitest run test/browser` refreshes the ones docs/testing.md shows.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS ? join(REPO_ROOT, 'docs', 'screenshots') : undefined;
const ALEX = { chatId: '284619375016482817', name: 'Alex Mercer' };
const UI_WAIT_MS = 15_000;

if (!hasChromium) console.warn(NO_CHROMIUM_MESSAGE);

/** A playground and a chromium page on its dashboard, collecting what the page reports as errors. */
async function startDashboard(
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

describe.skipIf(!hasChromium)("the dashboard's duty command, principals and counts in chromium", () => {
  let dashboard: Awaited<ReturnType<typeof startDashboard>> | undefined;
  let running: RunningPlayground;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    dashboard = await startDashboard({
      token: TOKEN,
      port: 0,
      demoPlayers: [ALEX.chatId],
    });
    ({ running, page, pageErrors } = dashboard);
    await page.goto(`${running.url}/`);
    await page.locator('#token').fill(TOKEN);
    await page.locator('#connect').click();
  }, 60_000);

  afterAll(() => dashboard?.close());

  const row = () => page.locator('#playground [data-player-id="1"]');
  async function typeDuty(args: string): Promise<string> {
    await row().locator('input.duty-args').fill(args);
    await row().locator('button.run-duty-command').click();
    const status = page.locator('#playground-status');
    await expect.poll(() => status.textContent(), { timeout: UI_WAIT_MS }).toMatch(/^Alex Mercer typed/);
    const text = (await status.textContent()) ?? '';
    await page.evaluate(() => {
      (document.querySelector('#playground-status') as HTMLElement).textContent = '';
    });
    return text;
  }

  it('types /duty for a player: the list lands in their chat, a number goes on duty, off goes off', async () => {
    await row().waitFor();
    expect(await row().locator('button.run-duty-command').textContent()).toBe('/duty');
    expect(await typeDuty('')).toContain('Duty: 1. Los Santos Police Department (lspd), Sergeant');
    await row().locator('.chat').getByText("Duty: 2. Blaine County Sheriff's Office (bcso), Deputy").waitFor();

    expect(await typeDuty('2')).toBe(
      "Alex Mercer typed /duty 2: You are now on duty: Blaine County Sheriff's Office, Deputy.",
    );
    await page.locator('#roster').getByText("Blaine County Sheriff's Office").waitFor();
    expect(await row().locator('.duty').textContent()).toMatch(/^On duty: BCSO · Deputy/);
    expect(await typeDuty('off')).toBe('Alex Mercer typed /duty off: You are now off duty.');
    await page.locator('#roster').getByText('Nobody is on duty.').waitFor();
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it("shows the principals the bridge gives a player on duty and GlobalState['bridge:onDutyCount']", async () => {
    const counts = page.locator('#duty-counts');
    await expect.poll(() => counts.textContent(), { timeout: UI_WAIT_MS }).toBe('On duty: 0 in all');
    expect(await row().locator('.no-principals').textContent()).toBe('none');

    await typeDuty('lspd');
    await expect
      .poll(() => row().locator('.principals li').allTextContents(), { timeout: UI_WAIT_MS })
      .toEqual([`bridge.account.chat:${ALEX.chatId}`, 'bridge.lspd', 'bridge.lspd.2', 'bridge.onduty']);
    expect(await row().locator('.no-principals').textContent()).toBe('');
    await expect.poll(() => counts.textContent(), { timeout: UI_WAIT_MS }).toBe('On duty: 1 in all · LSPD 1');
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-duty-command.png'), fullPage: true });
    await typeDuty('off');
    await expect.poll(() => row().locator('.no-principals').textContent(), { timeout: UI_WAIT_MS }).toBe('none');
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('deletes a user from the role editor, after asking, and the panel no longer knows them', async () => {
    const riley = { chatId: '417293856102947583', name: 'Riley Chen' };
    const user = page.locator('#users tr', { hasText: riley.name });
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await user.getByRole('button', { name: 'Delete' }).click();
    await user.waitFor({ state: 'detached' });
    expect(questions).toEqual([expect.stringContaining(`Delete ${riley.name} from the panel?`)]);
    expect(running.panel.store.users.find(riley.chatId)).toBeUndefined();
    await page.locator('#users-status', { hasText: `${riley.name} deleted` }).waitFor();
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('adds a user, who gets a department in the role editor and can join the playground', async () => {
    const morgan = { chatId: '701234567890123456', name: 'Morgan Blake' };
    await page.locator('#add-user-chat-id').fill('7012');
    await page.locator('#add-user-name').fill(morgan.name);
    await page.locator('#add-user').click();
    await page
      .locator('#users-status', { hasText: 'chatId must be 18 to 19 ASCII digits (404 malformed_chat_id)' })
      .waitFor();
    // The browser logs the panel's 404 for the malformed id, which is the answer this step expects.
    expect(pageErrors.splice(0)).toEqual([expect.stringContaining('status of 404')]);

    await page.locator('#add-user-chat-id').fill(morgan.chatId);
    await page.locator('#add-user').click();
    await page.locator('#users-status', { hasText: `${morgan.name} added (${morgan.chatId})` }).waitFor();
    expect(await page.locator('#add-user-chat-id').inputValue()).toBe('');
    const user = page.locator('#users tr', { hasText: morgan.name });
    await user.locator('select.rank[data-department-id="1"]').selectOption({ label: 'Officer' });
    await user.getByRole('button', { name: 'Apply' }).click();
    await page.locator('#users-status', { hasText: `${morgan.name}: LSPD · Officer` }).waitFor();
    const added = running.panel.store.users.find(morgan.chatId);
    expect(added && running.panel.store.users.departmentsOf(added).map((d) => d.slug)).toEqual(['lspd']);
    await expect
      .poll(() => page.locator('#join-user option').allTextContents(), { timeout: UI_WAIT_MS })
      .toContain(`${morgan.name} (${morgan.chatId})`);
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });
});

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
