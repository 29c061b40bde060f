// Dashboard of the bridge mock panel. Plain ES module, no framework, no build step.
//
// It polls the panel's JSON API once a second and renders it. Rows are keyed (by user, player,
// session...) and updated in place, so a <select> or input the user is working with survives
// the refresh. All data goes into the DOM through textContent or properties, never as HTML:
// user and player names are untrusted.

const TOKEN_KEY = 'bridge-mock-token';
const POLL_INTERVAL_MS = 1000;
// Without a simulated game server the playground route answers 404; no need to ask every second.
const PLAYGROUND_RETRY_MS = 10_000;
const POLL_TIMEOUT_MS = 5000;
// Playground actions go through the bridge to /api/leo, which may be slowed down on purpose.
const ACTION_TIMEOUT_MS = 60_000;
const REFUSED_TOKEN = 'The panel refused this token.';

const $ = (selector, root = document) => root.querySelector(selector);

const state = {
  token: null,
  // Bumped on every connect and disconnect, so answers to an older session are ignored.
  generation: 0,
  dashboard: null,
  playground: null,
  playgroundMissing: false,
  playgroundCheckedAt: 0,
  // Panel clock minus ours: live durations are computed on the panel's clock.
  clockOffsetMs: 0,
  pollTimer: undefined,
  polling: false,
  pollAgain: false,
};

// ---------------------------------------------------------------------------------------------
// Formatting

// 24-hour clock times ("12:03:04") whatever the browser's locale.
const clockOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
const clockFormat = new Intl.DateTimeFormat('en-GB', clockOptions);
const preciseClockFormat = new Intl.DateTimeFormat('en-GB', { ...clockOptions, fractionalSecondDigits: 3 });

const panelNow = () => Date.now() + state.clockOffsetMs;
const clockTime = (time) => (time == null ? '—' : clockFormat.format(new Date(time)));
const preciseTime = (time) => preciseClockFormat.format(new Date(time));
const shorten = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const percent = (rate) => `${Math.round((rate ?? 1) * 100)}%`;

function formatDuration(ms) {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${seconds}s`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

// The API gives full names ("Los Santos Police Department"); the slug ("LSPD") keeps the compact
// tables readable, so it is preferred whenever the department id is known.
function departmentLabel(id, fallbackName) {
  const department = state.dashboard?.departments.find((candidate) => candidate.id === id);
  return department ? department.slug.toUpperCase() : (fallbackName ?? '—');
}

function describeMemberships(departments) {
  if (!departments?.length) return 'no departments';
  return departments.map((d) => `${departmentLabel(d.id, d.name)} · ${d.rank.name}`).join(', ');
}

function describeFaults(faults) {
  const parts = [];
  if (faults.latencyMs > 0) parts.push(`latency ${faults.latencyMs} ms`);
  if (faults.errors) parts.push(`errors ${faults.errors.error} at ${percent(faults.errors.rate)}`);
  if (faults.outage) parts.push(`outage ${faults.outage.mode} at ${percent(faults.outage.rate)}`);
  if (faults.malformed) parts.push(`malformed ${faults.malformed.mode} at ${percent(faults.malformed.rate)}`);
  return parts.length > 0 ? parts.join(' · ') : 'no faults';
}

function statusClass(status) {
  if (status == null || status >= 500) return 'status-bad';
  if (status >= 400) return 'status-warn';
  if (status >= 200 && status < 300) return 'status-ok';
  return '';
}

// resetTimeMs is the panel's epoch time at which the window ends.
const secondsUntilReset = (resetTimeMs) => Math.max(0, Math.ceil((resetTimeMs - panelNow()) / 1000));

// ---------------------------------------------------------------------------------------------
// DOM helpers

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const span = (className) => el('span', { className });

// Writing only on change keeps text selectable and avoids needless layout work.
function setText(node, text) {
  const value = String(text);
  if (node.textContent !== value) node.textContent = value;
}

function setClass(node, className) {
  if (node.className !== className) node.className = className;
}

// A control the user is using or has changed without applying must not be overwritten.
const isUserEditing = (control) => document.activeElement === control || control.dataset.dirty === 'true';

function markDirtyOnChange(root) {
  root.addEventListener('change', (event) => {
    if (event.target instanceof HTMLSelectElement) event.target.dataset.dirty = 'true';
  });
}

function setOptions(select, options) {
  const signature = JSON.stringify(options);
  if (select.dataset.options === signature || document.activeElement === select) return;
  const previous = select.value;
  select.replaceChildren(...options.map(([value, label]) => el('option', { value, textContent: label })));
  select.dataset.options = signature;
  if (options.some(([value]) => value === previous)) select.value = previous;
  // A pending choice that is no longer offered (a department the player lost) is nothing to keep.
  else delete select.dataset.dirty;
}

function setSelectValue(select, value) {
  // A pending change that matches the panel again is no longer pending.
  if (select.value === value) delete select.dataset.dirty;
  if (!isUserEditing(select) && select.value !== value) select.value = value;
}

/**
 * Makes the container's children match items, in order, reusing the element rendered for the
 * same key so that focus, an open <select> and pending form values survive.
 */
function syncChildren(container, items, keyOf, create, update) {
  const previous = new Map([...container.children].map((child) => [child.dataset.key, child]));
  for (const [index, item] of items.entries()) {
    const key = String(keyOf(item, index));
    let child = previous.get(key);
    if (child) previous.delete(key);
    else {
      child = create(item);
      child.dataset.key = key;
    }
    update(child, item);
    const current = container.children[index];
    if (current !== child) container.insertBefore(child, current ?? null);
  }
  for (const stale of previous.values()) stale.remove();
}

function createCellRow(cellCount) {
  const row = el('tr');
  for (let i = 0; i < cellCount; i++) row.append(el('td'));
  return row;
}

function setCells(row, texts) {
  for (const [index, text] of texts.entries()) setText(row.cells[index], text);
}

function showEmptyState(emptyNode, listNode, isEmpty) {
  emptyNode.hidden = !isEmpty;
  listNode.hidden = isEmpty;
}

// ---------------------------------------------------------------------------------------------
// API

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body, timeoutMs = ACTION_TIMEOUT_MS) {
  const generation = state.generation;
  const headers = { Authorization: `Bearer ${state.token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error?.name === 'TimeoutError';
    throw new ApiError(0, 'network', timedOut ? 'The panel did not answer in time.' : 'The panel is unreachable.');
  }
  const payload = await response.json().catch(() => null);
  if (response.status === 401) {
    if (generation === state.generation) disconnect(REFUSED_TOKEN);
    throw new ApiError(401, 'unauthorized', REFUSED_TOKEN);
  }
  if (!response.ok || payload?.ok !== true) throw apiErrorFrom(response.status, payload);
  return payload;
}

function apiErrorFrom(status, payload) {
  if (payload === null) return new ApiError(status, 'not_json', `The panel answered ${status} without JSON.`);
  const code = payload.error ?? 'error';
  const field = payload.field ? `, field ${payload.field}` : '';
  return new ApiError(status, code, `${payload.message ?? code} (${status} ${code}${field})`);
}

// ---------------------------------------------------------------------------------------------
// Token and connection

const tokenForm = $('#token-form');
const tokenInput = $('#token');
const tokenError = $('#token-error');
const dashboardMain = $('#dashboard');
const connectionBar = $('#connection');
const liveIndicator = $('#live');
const pollError = $('#poll-error');

function connect(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  state.token = token;
  state.generation += 1;
  state.playgroundMissing = false;
  state.playgroundCheckedAt = 0;
  tokenForm.hidden = true;
  tokenError.hidden = true;
  dashboardMain.hidden = false;
  connectionBar.hidden = false;
  setText(liveIndicator, 'connecting…');
  setClass(liveIndicator, 'live');
  pollNow();
}

function disconnect(errorMessage) {
  sessionStorage.removeItem(TOKEN_KEY);
  state.token = null;
  state.generation += 1;
  state.dashboard = null;
  state.playground = null;
  clearTimeout(state.pollTimer);
  dashboardMain.hidden = true;
  connectionBar.hidden = true;
  pollError.hidden = true;
  tokenForm.hidden = false;
  tokenError.hidden = !errorMessage;
  setText(tokenError, errorMessage ?? '');
  tokenInput.focus();
}

tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = tokenInput.value.trim();
  // The token must not linger in the DOM once it is stored.
  tokenInput.value = '';
  if (token) connect(token);
});

$('#disconnect').addEventListener('click', () => disconnect());

// ---------------------------------------------------------------------------------------------
// Polling

/** Polls now (e.g. right after an action), then once a second; never two polls at once. */
async function pollNow() {
  if (!state.token) return;
  if (state.polling) {
    state.pollAgain = true;
    return;
  }
  clearTimeout(state.pollTimer);
  state.polling = true;
  const generation = state.generation;
  const [dashboard, playground] = await Promise.allSettled([fetchDashboard(), fetchPlayground()]);
  state.polling = false;
  // After a disconnect (or a 401) these answers belong to a session that is gone.
  if (generation === state.generation) applyPollResults(dashboard, playground);
  if (!state.token) return;
  if (state.pollAgain) {
    state.pollAgain = false;
    pollNow();
  } else {
    state.pollTimer = setTimeout(pollNow, POLL_INTERVAL_MS);
  }
}

const fetchDashboard = () => api('GET', '/__mock/dashboard', undefined, POLL_TIMEOUT_MS);

/** The playground's state, or null when there is no simulated game server (404). */
async function fetchPlayground() {
  if (state.playgroundMissing && Date.now() - state.playgroundCheckedAt < PLAYGROUND_RETRY_MS) return null;
  state.playgroundCheckedAt = Date.now();
  try {
    return await api('GET', '/__playground/state', undefined, POLL_TIMEOUT_MS);
  } catch (error) {
    if (error.status === 404) return null;
    throw error;
  }
}

function applyPollResults(dashboard, playground) {
  if (dashboard.status === 'fulfilled') {
    state.dashboard = dashboard.value;
    state.clockOffsetMs = dashboard.value.now - Date.now();
    setText(liveIndicator, `live · updated ${clockTime(Date.now())}`);
  }
  setClass(liveIndicator, dashboard.status === 'fulfilled' ? 'live ok' : 'live stale');
  if (playground.status === 'fulfilled') {
    state.playground = playground.value;
    state.playgroundMissing = playground.value === null;
  }
  const failure = [dashboard, playground].find((result) => result.status === 'rejected');
  pollError.hidden = !failure;
  if (failure) setText(pollError, `Poll failed at ${clockTime(Date.now())}: ${failure.reason.message} Still trying…`);
  // Durations keep ticking from the last known data even while the panel is down.
  if (state.dashboard) renderDashboard(state.dashboard);
  renderPlayground(state.playground);
}

// ---------------------------------------------------------------------------------------------
// Rendering: panel

const byIndex = (_, index) => index;
const byId = (item) => item.id;
const byChatId = (item) => item.chatId;

function renderDashboard(data) {
  renderUsers(data.users, data.departments);
  renderRoster(data.roster);
  renderSessions(data.sessions);
  renderRequests(data.requests);
  renderRateLimit(data.rateLimit);
  setText($('#faults'), describeFaults(data.faults));
}

/** Renders a section's table: one row per item, with the cell texts cellsOf(item) gives. */
function renderTable(section, items, keyOf, cellsOf, decorate) {
  showEmptyState($('.empty', section), $('table', section), items.length === 0);
  const columns = $('thead tr', section).cells.length;
  const create = () => createCellRow(columns);
  syncChildren($('tbody', section), items, keyOf, create, (row, item) => {
    setCells(row, cellsOf(item));
    decorate?.(row, item);
  });
}

function renderUsers(users, departments) {
  renderTable($('#users'), users, byChatId, userCells, (row, user) => {
    row.dataset.chatId = user.chatId;
    row.cells[2].title = user.departments.map((d) => `${d.name} · ${d.rank.name}`).join('\n');
    setClass(row.cells[1], 'mono');
    syncRoleEditor(row.cells[3], user, departments);
  });
}

// The fourth cell holds the role editor, which syncRoleEditor manages.
const userCells = (user) => [user.name, user.chatId, describeMemberships(user.departments)];

/** One select per department ("not a member" or a rank), preselected with the user's current rank. */
function syncRoleEditor(cell, user, departments) {
  const signature = JSON.stringify(departments.map((d) => [d.id, d.slug, d.ranks.map((r) => [r.id, r.name])]));
  if (cell.dataset.departments !== signature && !cell.contains(document.activeElement)) {
    const apply = el('button', { type: 'button', className: 'apply-roles', textContent: 'Apply' });
    const remove = el('button', { type: 'button', className: 'delete-user', textContent: 'Delete' });
    cell.replaceChildren(el('div', { className: 'role-editor' }, ...departments.map(createRankPicker), apply, remove));
    cell.dataset.departments = signature;
  }
  for (const select of cell.querySelectorAll('select.rank')) {
    const membership = user.departments.find((d) => d.id === Number(select.dataset.departmentId));
    setSelectValue(select, membership ? String(membership.rank.id) : '');
  }
}

function createRankPicker(department) {
  const select = el('select', { className: 'rank', title: department.name });
  select.dataset.departmentId = String(department.id);
  select.append(el('option', { value: '', textContent: 'not a member' }));
  for (const rank of department.ranks) select.append(el('option', { value: String(rank.id), textContent: rank.name }));
  return el('label', {}, el('span', { textContent: department.slug.toUpperCase() }), select);
}

/**
 * The role ids /syncme would leave the user with: their roles outside every department, plus
 * the first member role and the rank role of each department with a chosen rank.
 */
function computeRoles(currentRoles, departments, choices) {
  const departmentRoles = new Set(departments.flatMap((d) => [...d.memberRoles, ...d.ranks.map((r) => r.roleId)]));
  const roles = currentRoles.filter((roleId) => !departmentRoles.has(roleId));
  for (const { departmentId, rankId } of choices) {
    const department = departments.find((d) => d.id === departmentId);
    const rank = department?.ranks.find((r) => r.id === rankId);
    if (rank) roles.push(department.memberRoles[0], rank.roleId);
  }
  return [...new Set(roles.filter(Boolean))];
}

function renderRoster(roster) {
  const now = panelNow();
  renderTable($('#roster'), roster, byChatId, (entry) => [
    entry.playerName && entry.playerName !== entry.name ? `${entry.name} (${entry.playerName})` : entry.name,
    entry.departmentName,
    entry.rankName,
    clockTime(entry.since),
    formatDuration(now - Date.parse(entry.since)),
    entry.serverId ?? '—',
  ]);
}

// What the panel knows of why a session ended: an `off` call (the contract's off body names only the player and the
// department, not why), or a new `on` for another department or rank, which ends the session it replaces.
const ENDED_BY = { off: 'off duty call', switch: 'replaced by a new on', deleted: 'user deleted' };

// Why the bridge ended it, when the playground saw the game side (shared/events.ts OffDutyReason).
const BRIDGE_REASONS = {
  request: 'player request',
  department_removed: 'department removed',
  account_removed: 'account removed',
  dropped: 'disconnect',
  resource_stop: 'resource stop',
  admin: 'admin',
  replaced: 'another session',
};

function endedBecause(session) {
  const panelSide = ENDED_BY[session.endedBy] ?? session.endedBy ?? '—';
  if (!session.reportedReason) return panelSide;
  return `${panelSide} · ${BRIDGE_REASONS[session.reportedReason] ?? session.reportedReason}`;
}

function renderSessions(sessions) {
  const now = panelNow();
  renderTable($('#sessions'), sessions, byId, (session) => [
    session.name,
    session.departmentName,
    session.rankName,
    clockTime(session.startedAt),
    session.endedAt ? clockTime(session.endedAt) : 'on duty',
    // An open session's duration is still growing.
    formatDuration(session.durationMs ?? now - Date.parse(session.startedAt)),
    endedBecause(session),
  ]);
}

// The log has no ids; rows are reused by position and only their text changes.
function renderRequests(requests) {
  renderTable($('#requests'), requests, byIndex, requestCells, (row, request) => {
    setClass(row.cells[2], 'mono');
    setClass(row.cells[3], `http-status ${requestStatusClass(request)}`);
    row.title = request.startupCheck ? STARTUP_CHECK_TITLE : '';
  });
}

const STARTUP_CHECK_TITLE =
  "The bridge's start-up check: it asks for a user nobody has, so a 404 means the panel is up and takes the token.";

// The start-up check expects its 404: only another answer (a 401 for a wrong token, a 5xx) is a failure.
const isExpectedStartupAnswer = (r) => r.startupCheck === true && r.status === 404;

const requestStatusClass = (r) => (isExpectedStartupAnswer(r) ? 'status-expected' : statusClass(r.status));

const requestStatus = (r) => {
  const status = r.status ?? 'no answer';
  return r.startupCheck ? `${status} · start-up check` : status;
};

const requestCells = (r) => [
  preciseTime(r.time),
  r.method,
  r.path,
  requestStatus(r),
  `${r.latencyMs} ms`,
  r.clientIp,
  r.faults.length > 0 ? r.faults.join(', ') : '—',
];

function renderRateLimit(rateLimit) {
  const section = $('#rate-limit');
  setText($('.policy', section), `Policy: ${rateLimit.limit} per ${rateLimit.windowMs / 1000} s, per client IP.`);
  renderRequestTotals($('.totals', section), rateLimit);
  const list = $('.windows', section);
  showEmptyState($('.empty', section), list, rateLimit.windows.length === 0);
  const byClient = (w) => w.key;
  syncChildren(list, rateLimit.windows, byClient, createRateWindow, (item, w) => {
    const { limit } = rateLimit;
    Object.assign($('meter', item), { max: limit, low: limit * 0.5, high: limit * 0.85, value: w.used });
    setText($('.client', item), w.key);
    const resetsIn = secondsUntilReset(w.resetTimeMs);
    setText($('.numbers', item), `${w.used} of ${limit} used · ${w.remaining} remaining · resets in ${resetsIn} s`);
  });
}

// Every server behind one IP spends the same window: the 429s say whether they shared it well.
function renderRequestTotals(node, { requests, tooManyRequests }) {
  if (!node.firstChild) node.append(span('requests'), span('rejected'));
  setText(node.firstChild, `${requests} requests since the start · `);
  setText(node.lastChild, `${tooManyRequests} answered 429`);
  setClass(node.lastChild, tooManyRequests > 0 ? 'rejected some' : 'rejected');
}

function createRateWindow() {
  const head = el('div', { className: 'window-head' }, span('client mono'), span('numbers'));
  return el('li', {}, head, el('meter', { min: 0, optimum: 0 }));
}

// ---------------------------------------------------------------------------------------------
// Rendering: playground

function renderPlayground(data) {
  const section = $('#playground');
  section.hidden = !data;
  if (!data) return;
  setOptions($('#join-user'), data.demoUsers.map(demoUserOption));
  const several = severalServers();
  renderCommunity(data, several);
  setText(
    $('#duty-counts'),
    several
      ? describeCounts(data.communityOnDutyCount, 'the community', COMMUNITY_COUNTS)
      : describeCounts(data.onDutyCount),
  );
  showEmptyState($('.players-empty', section), $('table.players', section), data.players.length === 0);
  syncChildren($('tbody', section), data.players, byServerAndId, createPlayerRow, updatePlayerRow);
  renderEvents(data.events);
  renderConsole(data.console);
}

const demoUserOption = (user) => [user.chatId, `${user.name} (${user.chatId})`];
const COMMUNITY_COUNTS = "GlobalState['bridge:communityOnDutyCount']";
// Players of several servers share ids (each server numbers its own from 1): a row is a server's player.
const byServerAndId = (player) => `${player.server ?? 1}:${player.id}`;
/** `npm start -- --servers 2`: the page names each player's server and sums up every server. */
const severalServers = () => (state.playground?.servers?.length ?? 1) > 1;
const serverTag = (server) => (severalServers() && server != null ? `S${server}` : '');

// The counts another resource reads, a robbery script asking for three police on duty: { [slug]: n, total: n }.
function describeCounts(counts, whose = '', key = "GlobalState['bridge:onDutyCount']") {
  const of = whose ? ` (${whose})` : '';
  if (!counts) return `On-duty counts${of}: not published (${key} is not set).`;
  const { total, ...departments } = counts;
  const parts = Object.keys(departments)
    .sort()
    .map((slug) => `${slug.toUpperCase()} ${departments[slug]}`);
  return [`On duty${of}: ${total ?? '?'} in all`, ...parts].join(' · ');
}

/** Several servers: which one a player joins, the Redis they share (or none), and one line per server. */
function renderCommunity(data, several) {
  for (const node of document.querySelectorAll('.join-server')) node.hidden = !several;
  $('#community').hidden = !several;
  if (!several) return;
  setOptions(
    $('#join-server'),
    data.servers.map(({ server }) => [String(server), `Server ${server}`]),
  );
  setText(
    $('#community-redis'),
    data.redis
      ? `One community on the Redis at ${data.redis.url}${data.redis.running ? '' : ' (not running)'}: one panel budget, profiles fetched once, on-duty counts summed.`
      : 'No Redis (--no-redis): each server believes it is alone, and all of them spend the panel’s limit for this IP.',
  );
  $('#kill-redis').hidden = !data.redis?.running;
  $('#start-redis').hidden = !data.redis || data.redis.running;
  syncChildren(
    $('#community-servers'),
    data.servers,
    (summary) => summary.server,
    createServerSummary,
    (item, s) => {
      setText($('.server-name', item), `Server ${s.server}`);
      setText(
        $('.server-figures', item),
        `: ${s.players} ${s.players === 1 ? 'player' : 'players'}, ${s.onDuty} on duty · its own counts: ${describeCounts(s.onDutyCount)} · the community’s as it holds them: ${describeCounts(s.communityOnDutyCount, '', COMMUNITY_COUNTS)}`,
      );
    },
  );
}

const createServerSummary = () => el('li', {}, span('server-name'), span('server-figures'));

const PLAYER_BUTTONS = [
  ['on-duty', 'On duty'],
  ['off-duty', 'Off duty'],
  ['refresh', '/dutyrefresh'],
  ['drop', 'Drop'],
];

function createPlayerRow(player) {
  const row = createCellRow(7);
  row.dataset.playerId = String(player.id);
  row.dataset.server = String(player.server ?? 1);
  row.cells[1].append(span('player-name'), el('small', { className: 'chat-id mono' }));
  row.cells[2].append(span('duty'), el('small', { className: 'player-error' }));
  row.cells[3].append(el('select', { className: 'department' }));
  row.cells[4].append(el('ul', { className: 'principals mono' }), el('small', { className: 'no-principals' }));
  row.cells[5].className = 'actions';
  for (const [className, textContent] of PLAYER_BUTTONS) {
    row.cells[5].append(el('button', { type: 'button', className, textContent }));
  }
  row.cells[5].append(createDutyCommandForm());
  row.cells[6].append(el('ol', { className: 'notifications' }), el('ol', { className: 'chat' }));
  return row;
}

/** The bridge's duty command as the player types it in chat: what follows the name goes in the field. */
function createDutyCommandForm() {
  const args = el('input', {
    type: 'text',
    className: 'duty-args',
    placeholder: 'off, lspd, 2…',
    maxLength: 64,
    spellcheck: false,
  });
  args.setAttribute('aria-label', 'duty command arguments');
  const run = el('button', { type: 'submit', className: 'run-duty-command', textContent: '/duty' });
  return el('form', { className: 'duty-command' }, args, run);
}

function updatePlayerRow(row, player) {
  setText(row.cells[0], severalServers() ? `${serverTag(player.server)} · ${player.id}` : player.id);
  setText($('.player-name', row), player.name);
  setText($('.chat-id', row), player.chatId ?? 'no chat id');
  setText($('.duty', row), describeDuty(player));
  setClass($('.duty', row), player.onDuty ? 'duty on' : 'duty');
  setText($('.player-error', row), player.error ?? '');
  syncDepartmentSelect($('select.department', row), player);
  syncOnDutyButton($('button.on-duty', row), player);
  syncChildren(
    $('.principals', row),
    player.principals,
    (principal) => principal,
    () => el('li'),
    setText,
  );
  setText($('.no-principals', row), player.principals.length === 0 ? 'none' : '');
  setText($('button.run-duty-command', row), state.playground?.dutyCommand ?? '/duty');
  syncChildren($('.notifications', row), player.notifications, byIndex, () => el('li'), setText);
  syncChildren($('.chat', row), player.chat, byIndex, () => el('li'), setText);
}

/**
 * The player's duty menu: their current departments, one of them selected (the playground keeps the bridge's
 * selection on one they hold). An id they no longer hold, a duty's department just removed, is never shown as a
 * blank choice: the first department stands in until the next poll.
 */
function syncDepartmentSelect(select, player) {
  const options = player.departments.map((d) => [String(d.id), `${departmentLabel(d.id, d.name)} · ${d.rank.name}`]);
  setOptions(select, options.length > 0 ? options : [['', 'no departments']]);
  select.disabled = options.length === 0;
  const offered = (id) => options.some(([value]) => value === String(id));
  const selected = [player.selectedDeptId, player.departmentId].find((id) => id != null && offered(id));
  setSelectValue(select, String(selected ?? options[0]?.[0] ?? ''));
}

/** "On duty" needs a department to go on duty in; a running action keeps its button disabled until it ends. */
function syncOnDutyButton(button, player) {
  const none = player.departments.length === 0;
  button.disabled = none || button.dataset.busy === 'true';
  button.title = none ? 'No departments: the panel gives this player none to go on duty in.' : '';
}

function describeDuty(player) {
  if (!player.onDuty) return 'Off duty';
  const department = departmentLabel(player.departmentId, player.departmentName);
  return `On duty: ${department} · ${player.rankName ?? '?'} since ${clockTime(player.since)}`;
}

/** A playground log (events, console lines): each item shows its time, then what `update` writes. */
function renderLog(list, emptyNode, entries, create, update) {
  showEmptyState(emptyNode, list, entries.length === 0);
  syncChildren(list, entries, byIndex, create, (item, entry) => {
    setText($('.time', item), clockTime(entry.at));
    update(item, entry);
  });
}

function renderEvents(events) {
  renderLog($('#events'), $('.events-empty'), events, createEventItem, (item, event) => {
    setText($('.server-tag', item), serverTag(event.server));
    setText($('.side', item), event.side);
    setClass($('.side', item), `side side-${event.side}`);
    setText($('.player', item), event.player == null ? '—' : `#${event.player}`);
    setText($('.name', item), event.name);
    // Arguments can be whole department payloads: show the start, the rest on hover.
    setText($('.args', item), shorten(event.args, 160));
    $('.args', item).title = event.args;
  });
}

const createEventItem = () =>
  el('li', {}, span('time'), span('server-tag'), span('side'), span('player'), span('name'), span('args mono'));

function renderConsole(lines) {
  renderLog($('#console'), $('.console-empty'), lines, createConsoleLine, (item, line) => {
    setText($('.server-tag', item), serverTag(line.server));
    setText($('.text', item), line.text);
  });
}

const createConsoleLine = () => el('li', {}, span('time'), span('server-tag'), span('text'));

// ---------------------------------------------------------------------------------------------
// Actions

const controlsStatus = $('#controls-status');
const usersStatus = $('#users-status');
const playgroundStatus = $('#playground-status');

function showStatus(targets, text, tone) {
  for (const target of targets) {
    setText(target, text);
    setClass(target, `status ${tone}`);
  }
}

/**
 * Runs one request-backed action: its buttons are disabled meanwhile, and its outcome (a message,
 * or { text, tone }) or its error goes to the status lines. Then the page polls at once.
 */
async function runAction(buttons, statusTargets, work) {
  for (const button of buttons) {
    button.disabled = true;
    button.dataset.busy = 'true';
  }
  showStatus(statusTargets, 'Working…', 'pending');
  try {
    const result = await work();
    const { text, tone = 'ok' } = typeof result === 'string' ? { text: result } : result;
    showStatus(statusTargets, text, tone);
  } catch (error) {
    showStatus(statusTargets, error.message, 'error');
  } finally {
    for (const button of buttons) {
      delete button.dataset.busy;
      button.disabled = false;
    }
    pollNow();
  }
}

/** An empty rate field means "the panel's default" (1); anything else must be a number. */
function readRate(input) {
  if (input.value.trim() === '') return undefined;
  const rate = input.valueAsNumber;
  if (Number.isNaN(rate)) throw new Error('The rate must be a number from 0 to 1.');
  return rate;
}

/** Wires a panel-control button: confirm first if asked to, then run its request. */
function onControl(selector, work, confirmation) {
  const button = $(selector);
  button.addEventListener('click', () => {
    if (confirmation && !confirm(confirmation)) return;
    runAction([button], [controlsStatus], work);
  });
}

onControl('#apply-latency', async () => {
  const ms = $('#latency').valueAsNumber;
  if (Number.isNaN(ms)) throw new Error('Enter a latency in milliseconds.');
  await api('PUT', '/__mock/faults/latency', { ms });
  return `Latency set to ${ms} ms.`;
});

onControl('#apply-errors', async () => {
  const error = $('#error-code').value;
  const rate = readRate($('#error-rate'));
  await api('PUT', '/__mock/faults/errors', { error, rate });
  return `Injecting ${error} into ${percent(rate)} of requests.`;
});

onControl('#apply-outage', async () => {
  const mode = $('#outage-mode').value;
  const rate = readRate($('#outage-rate'));
  await api('PUT', '/__mock/faults/outage', { mode, rate });
  return `Outage "${mode}" on ${percent(rate)} of requests.`;
});

onControl('#clear-faults', async () => {
  await api('DELETE', '/__mock/faults');
  return 'All faults cleared.';
});

const RESET_QUESTION = 'Reset the mock panel to its seed data? Roles, duty, sessions, request log and faults are lost.';
onControl('#reset-panel', resetPanel, RESET_QUESTION);

async function resetPanel() {
  await api('POST', '/__mock/reset');
  return 'Panel reset to its seed data.';
}

const usersBody = $('#users tbody');
markDirtyOnChange(usersBody);
usersBody.addEventListener('click', (event) => {
  const button = event.target.closest('button.apply-roles');
  if (button) applyRoles(button.closest('tr'), button);
  const remove = event.target.closest('button.delete-user');
  if (remove) deleteUser(remove.closest('tr'), remove);
});

/** A user the panel did not know, without roles: the role editor of their new row gives them departments. */
const addUserForm = $('#add-user-form');
addUserForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const chatIdInput = $('#add-user-chat-id');
  const nameInput = $('#add-user-name');
  const chatId = chatIdInput.value.trim();
  const name = nameInput.value.trim();
  runAction([$('#add-user')], [controlsStatus, usersStatus], async () => {
    if (!chatId) throw new Error('Enter the chat id of the account, 18 to 19 digits.');
    if (!name) throw new Error('Enter the name the panel knows the user by.');
    if (state.dashboard?.users.some((u) => u.chatId === chatId)) {
      throw new Error(`The panel has a user with chat id ${chatId} already.`);
    }
    await api('PUT', `/__mock/users/${encodeURIComponent(chatId)}`, { name });
    chatIdInput.value = '';
    nameInput.value = '';
    return `${name} added (${chatId}), without roles: give them departments in their row.`;
  });
});

/** What a panel admin deleting or banning the account does: the panel answers 404 user_not_found for them. */
function deleteUser(row, button) {
  const user = state.dashboard?.users.find((u) => u.chatId === row.dataset.chatId);
  if (!user) return;
  const question = `Delete ${user.name} from the panel? It answers 404 user_not_found for them until the panel is reset.`;
  if (!confirm(question)) return;
  runAction([button], [controlsStatus, usersStatus], async () => {
    await api('DELETE', `/__mock/users/${encodeURIComponent(user.chatId)}`);
    return `${user.name} deleted: the panel no longer knows ${user.chatId}.`;
  });
}

function applyRoles(row, button) {
  const user = state.dashboard?.users.find((u) => u.chatId === row.dataset.chatId);
  if (!user) return;
  const selects = [...row.querySelectorAll('select.rank')];
  const choices = selects.map((select) => ({
    departmentId: Number(select.dataset.departmentId),
    rankId: select.value === '' ? null : Number(select.value),
  }));
  const roles = computeRoles(user.roles, state.dashboard.departments, choices);
  runAction([button], [controlsStatus, usersStatus], async () => {
    const answer = await api('PUT', `/__mock/users/${encodeURIComponent(user.chatId)}/roles`, { roles });
    // Applied: the selects follow the panel's state again.
    for (const select of selects) delete select.dataset.dirty;
    return `${user.name}: ${describeMemberships(answer.departments)}.`;
  });
}

const playersBody = $('#playground tbody');
markDirtyOnChange(playersBody);
const playerActions = { 'on-duty': goOnDuty, 'off-duty': goOffDuty, refresh: refreshPlayer, drop: dropPlayer };
playersBody.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  const row = button?.closest('tr[data-player-id]');
  if (!row) return;
  const action = Object.keys(playerActions).find((className) => button.classList.contains(className));
  if (!action) return;
  const { path, name } = playerOf(row);
  runAction([button], [playgroundStatus], () => playerActions[action](path, name, row));
});

/** A row's player: the route of their server's player, and their name for the status line. */
function playerOf(row) {
  const { playerId: id, server } = row.dataset;
  const player = state.playground?.players.find((p) => String(p.id) === id && String(p.server ?? 1) === server);
  const tag = serverTag(Number(server));
  return {
    path: `/__playground/servers/${server}/players/${id}`,
    name: `${player?.name ?? `#${id}`}${tag ? ` (${tag})` : ''}`,
  };
}

/** The duty menu: choose the department (setActive), then go on duty in it. */
async function goOnDuty(path, name, row) {
  const select = $('select.department', row);
  if (select.value !== '') {
    await api('POST', `${path}/department`, { departmentId: Number(select.value) });
  }
  const answer = await api('POST', `${path}/duty`, { on: true });
  delete select.dataset.dirty;
  return describeOutcome(name, answer.outcome, true);
}

async function goOffDuty(path, name) {
  const answer = await api('POST', `${path}/duty`, { on: false });
  return describeOutcome(name, answer.outcome, false);
}

playersBody.addEventListener('submit', (event) => {
  const form = event.target.closest('form.duty-command');
  const row = form?.closest('tr[data-player-id]');
  if (!row) return;
  event.preventDefault();
  const { path, name } = playerOf(row);
  runAction([$('button', form)], [playgroundStatus], () => runDutyCommand(path, name, $('input', form)));
});

/** Types the duty command in the player's chat; the status shows what the player saw in answer. */
async function runDutyCommand(path, name, input) {
  const { answer } = await api('POST', `${path}/duty-command`, { args: input.value.trim() });
  input.value = '';
  const shown = [...answer.notifications, ...answer.chat];
  if (shown.length === 0) return { text: `${name} typed ${answer.command}; nothing was shown.`, tone: 'warn' };
  return `${name} typed ${answer.command}: ${shown.join(' · ')}`;
}

async function refreshPlayer(path, name) {
  await api('POST', `${path}/refresh`);
  return `${name}: /dutyrefresh sent.`;
}

async function dropPlayer(path, name) {
  await api('DELETE', path);
  return `${name} dropped.`;
}

// The bridge's answer is a success at the HTTP level even when it refuses; show refusals as warnings.
function describeOutcome(name, outcome, on) {
  const wanted = on ? 'on duty' : 'off duty';
  if (!outcome?.ok) return { text: `${name}: ${outcome?.message ?? outcome?.error ?? 'refused'}`, tone: 'warn' };
  if (outcome.message) return `${name}: ${outcome.message}`;
  return outcome.changed === false ? `${name} was already ${wanted}.` : `${name} is now ${wanted}.`;
}

// The community without its Redis: kill -9, then start it again empty, and watch the servers' consoles.
for (const [selector, action, done] of [
  ['#kill-redis', 'kill', 'Redis killed (-9): each server now serves its own players alone.'],
  ['#start-redis', 'start', 'Redis started again, empty: the servers find it and share again.'],
]) {
  const button = $(selector);
  button.addEventListener('click', () =>
    runAction([button], [playgroundStatus], async () => {
      await api('POST', `/__playground/redis/${action}`);
      return done;
    }),
  );
}

const joinForm = $('#join-form');
joinForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const chatId = $('#join-user').value;
  const nameInput = $('#join-name');
  const name = nameInput.value.trim();
  runAction([$('#join')], [playgroundStatus], async () => {
    if (!chatId) throw new Error('Pick a demo user to join as.');
    const server = severalServers() ? Number($('#join-server').value || 1) : undefined;
    const answer = await api('POST', '/__playground/players', { chatId, ...(name ? { name } : {}), server });
    nameInput.value = '';
    const where = server === undefined ? '' : ` on server ${server}`;
    return `${answer.player.name} joined as player #${answer.player.id}${where}.`;
  });
});

// ---------------------------------------------------------------------------------------------
// Start

const savedToken = sessionStorage.getItem(TOKEN_KEY);
if (savedToken) connect(savedToken);
else disconnect();
