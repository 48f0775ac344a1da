/* global URLSearchParams */
// The live dashboard: wires the key form, the stream client, the list, the chart, the tile map and
// the bill panel together. Plain browser JavaScript, no build step.
import { StreamClient } from './sse.js';
import { MinuteChart, REASONS } from './chart.js';
import { TileMap, CODES, stateName } from './tilemap.js';
import { BillPanel } from './bill.js';
import { describeStatus, describeHeartbeat } from './status.js';

const KEY_STORE = 'lds.apiKey';
const MAX_ROWS = 500;
const ANNOUNCE_EVERY_MS = 5000;

const $ = (sel) => document.querySelector(sel);
const tid = (id) => document.querySelector(`[data-testid="${id}"]`);
// Relative to the page, so the dashboard also works when the service sits under a path prefix.
const api = (path) => new URL(`..${path}`, location.href).toString();

const form = $('#connect-form');
const keyInput = $('#api-key');
const statesInput = $('#states');
const rowsEl = $('#rows');
const problem = $('#problem');
const chart = new MinuteChart($('#chart'), $('#legend'));
const tiles = new TileMap($('#tilemap'), toggleState);
const panel = new BillPanel($('#bill'), () => sessionStorage.getItem(KEY_STORE) ?? '', api);

let client;
let acceptReasons = new Set(REASONS);
let acceptStates = new Set();
const shown = new Set();
let pendingAnnounce = [];
let lastStatus = { phase: 'idle' };
let heartbeatAt;

function parseStates(text) {
  const codes = text
    .toUpperCase()
    .split(/[\s,;]+/)
    .filter(Boolean);
  const bad = codes.filter((c) => !CODES.includes(c));
  return { codes: [...new Set(codes.filter((c) => CODES.includes(c)))], bad };
}

function toggleState(code) {
  const { codes } = parseStates(statesInput.value);
  const next = codes.includes(code) ? codes.filter((c) => c !== code) : [...codes, code];
  statesInput.value = next.join(', ');
  tiles.setSelected(next);
  tiles.update();
  if (client) connect();
}

function showProblem(text) {
  problem.hidden = !text;
  problem.textContent = text ?? '';
}

function setBadge(phase, text) {
  const badge = tid('connection-badge');
  badge.dataset.phase = phase;
  badge.textContent = text;
  tid('phase').textContent = text;
}

function onStatus(s) {
  lastStatus = s;
  if (s.heartbeatAt) heartbeatAt = s.heartbeatAt;
  const d = describeStatus(s);
  setBadge(d.phase, d.text);
  showProblem(d.problem);
  tid('rotations').textContent = String(s.stats.rotations);
  tid('resumes').textContent = String(s.stats.resumes);
  tid('duplicates').textContent = String(s.stats.duplicates);
  tid('last-id').textContent = s.lastId ?? 'none';
  if (s.streamError) {
    const e = s.streamError;
    tid('stream-error').textContent =
      `${new Date().toLocaleTimeString()}: the server reported a problem (${e.code ?? 'error'}${e.message ? `: ${e.message}` : ''}). The stream stays open and resumes where it stopped.`;
  }
  const live = s.phase === 'connecting' || s.phase === 'open' || s.phase === 'waiting' || s.phase === 'rate_limited';
  $('#disconnect').disabled = !live;
}

/** Adds one change to the list, the chart and the map; false when it was already shown. */
function addChange(c, { announce = true, fromBackfill = false } = {}) {
  const key = c.changed_at ?? `${c.bill_id}:${c.reason}`;
  if (shown.has(key)) return false;
  if (!acceptReasons.has(c.reason) || (acceptStates.size && !acceptStates.has(c.state))) return false;
  shown.add(key);
  chart.add(c.changed_at, c.reason);
  if (!fromBackfill) tiles.hit(c.state);
  else tiles.totals.set(c.state, (tiles.totals.get(c.state) ?? 0) + 1);
  const li = document.createElement('li');
  li.className = 'row';
  li.dataset.id = key;
  li.dataset.billId = String(c.bill_id);
  li.dataset.reason = c.reason;
  const time = document.createElement('time');
  time.dateTime = c.changed_at;
  time.textContent = new Date(c.changed_at).toLocaleTimeString([], {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const st = document.createElement('abbr');
  st.className = 'state';
  st.title = stateName(c.state);
  st.textContent = c.state;
  const link = document.createElement('a');
  link.className = 'bill';
  link.href = `#bill-${c.bill_id}`;
  link.textContent = c.bill_number;
  link.setAttribute('aria-label', `${stateName(c.state)} ${c.bill_number}: open details`);
  link.addEventListener('click', (e) => {
    e.preventDefault();
    history.replaceState(null, '', `#bill-${c.bill_id}`);
    panel.open(c.bill_id, c).catch(() => undefined);
  });
  const reason = document.createElement('span');
  reason.className = `reason r-${REASONS.includes(c.reason) ? c.reason : 'Other'}`;
  reason.textContent = c.reason;
  const title = document.createElement('span');
  title.className = 'title';
  title.textContent = c.title;
  li.append(time, st, link, reason, title);
  // Newest first by the stream's own order (ids are increasing timestamps), even for backfill.
  let before = rowsEl.firstElementChild;
  while (before && before.dataset.id > key) before = before.nextElementSibling;
  rowsEl.insertBefore(li, before);
  while (rowsEl.children.length > MAX_ROWS) rowsEl.lastElementChild.remove();
  tid('row-count').textContent = String(shown.size);
  tid('empty').hidden = true;
  if (announce) pendingAnnounce.push(c);
  return true;
}

// Screen readers get a summary every few seconds instead of one announcement per change.
setInterval(() => {
  if (pendingAnnounce.length === 0) return;
  const list = pendingAnnounce;
  pendingAnnounce = [];
  const first = list
    .slice(0, 3)
    .map((c) => `${c.state} ${c.bill_number} ${c.reason}`)
    .join('; ');
  tid('announce').textContent =
    `${list.length} new change${list.length === 1 ? '' : 's'}: ${first}${list.length > 3 ? '; and more' : ''}.`;
}, ANNOUNCE_EVERY_MS);

setInterval(() => {
  tid('heartbeat').textContent = describeHeartbeat(lastStatus, heartbeatAt);
  if (lastStatus.until) onStatus(lastStatus); // refresh countdowns
  tiles.update();
}, 1000);
setInterval(() => chart.dirty && chart.render(), 1000);
setInterval(() => chart.render(), 30_000); // the window slides even when nothing happens

/** Fills the last hour from the pull feed, returns the feed's server_now to start the stream from. */
async function backfill(key, reasonParam) {
  const since = new Date(Date.now() - 3600_000).toISOString();
  const params = new URLSearchParams({ since, limit: '1000' });
  if (reasonParam) params.set('reason', reasonParam);
  if (acceptStates.size === 1) params.set('state', [...acceptStates][0]);
  try {
    const res = await fetch(api(`/v1/changes?${params}`), { headers: { 'X-API-Key': key } });
    if (!res.ok) return undefined;
    const body = await res.json();
    for (const r of body.data ?? []) {
      addChange(
        {
          bill_id: r.bill_id,
          bill_number: r.bill_number,
          state: r.state_abbr,
          title: r.title,
          reason: r.reason_name,
          reason_id: r.reason_id,
          changed_at: r.changed_at,
        },
        { announce: false, fromBackfill: true },
      );
    }
    return body.summary?.server_now;
  } catch {
    return undefined;
  }
}

async function connect() {
  const key = keyInput.value.trim();
  if (!key) {
    showProblem('Paste an API key first. Keys are issued by the operator; there is no sign-up.');
    keyInput.focus();
    return;
  }
  const { codes, bad } = parseStates(statesInput.value);
  if (bad.length) {
    showProblem(
      `Unknown state code${bad.length > 1 ? 's' : ''}: ${bad.join(', ')}. Use two-letter postal codes, DC, or US for Congress.`,
    );
    statesInput.focus();
    return;
  }
  const reasons = [...form.querySelectorAll('input[name="reason"]:checked')].map((i) => i.value);
  if (reasons.length === 0) {
    showProblem('Choose at least one reason.');
    return;
  }
  sessionStorage.setItem(KEY_STORE, key);
  client?.stop();
  acceptStates = new Set(codes);
  acceptReasons = new Set(reasons);
  tiles.setSelected(codes);
  // The stream filters by one reason; for another subset it sends everything and the page filters.
  const reasonParam = reasons.length === 1 ? reasons[0] : undefined;
  const params = { states: codes.join(','), reason: reasonParam };
  const mine = (client = new StreamClient({ url: api('/v1/stream'), key, params, onEvent, onStatus }));
  setBadge('connecting', 'Connecting…');
  const since = await backfill(key, reasonParam);
  chart.render();
  if (client !== mine) return;
  mine.since = since;
  mine.start();
}

function onEvent(e) {
  if (e.type !== 'bill_change' || !e.data || typeof e.data !== 'object') return;
  addChange({ ...e.data, changed_at: e.data.changed_at ?? e.id });
  tid('events').textContent = String(Number(tid('events').textContent) + 1);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  connect();
});
$('#disconnect').addEventListener('click', () => client?.stop());
$('#forget').addEventListener('click', () => {
  client?.stop();
  sessionStorage.removeItem(KEY_STORE);
  keyInput.value = '';
  showProblem('The key was removed from this tab.');
});

// Arrow keys move between bill links in the list; Tab still leaves the list in one step each way.
rowsEl.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const row = e.target.closest('li');
  const next = e.key === 'ArrowDown' ? row?.nextElementSibling : row?.previousElementSibling;
  if (!next) return;
  e.preventDefault();
  next.querySelector('a').focus();
});

function openFromHash() {
  const m = /^#bill-(\d+)$/.exec(location.hash);
  if (m && sessionStorage.getItem(KEY_STORE)) panel.open(Number(m[1])).catch(() => undefined);
}
window.addEventListener('hashchange', openFromHash);
$('#bill').addEventListener('close', () => {
  if (location.hash.startsWith('#bill-')) history.replaceState(null, '', location.pathname + location.search);
});

chart.render();
const saved = sessionStorage.getItem(KEY_STORE);
if (saved) {
  keyInput.value = saved;
  connect().then(openFromHash);
}
