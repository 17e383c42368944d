/**
 * The operations console: summary tiles, the volume chart, webhook health and the payments table,
 * loaded over GraphQL/HTTP and kept live by `paymentUpdated` over graphql-ws (UMD global
 * `graphqlWs`). Browser ES modules, no build step. The API key lives only in this module's state:
 * never in storage, never in the URL.
 */
import { chainWatchers, request } from './api.js';
import { createDetailPanel } from './detail-panel.js';
import { createPaymentsTable } from './payments-table.js';
import {
  COUNTRIES, CURRENCIES, METHODS, PAYMENT, PAYMENT_UPDATES, PAYMENTS, paymentFilter, paymentFromWire, seriesQuery, STATUSES,
  summaryQuery, GROUP_BY, WEBHOOK_HEALTH, RECENT_DEPOSITS,
} from './queries.js';
import { statusLabel } from './format.js';
import { renderTiles, todayUtc } from './tiles.js';
import { createVolumeChart, seriesWindow } from './volume-chart.js';
import { renderWebhookHealth } from './webhook-health.js';
import { renderChainWatchers, renderDeposits } from './deposits-panel.js';

/** Rows per page of the payments table. */
const PAGE_SIZE = 25;
/** Close codes after which retrying with the same key is pointless. */
const REFUSED = { 4401: 'The key was refused (invalid or revoked).', 4403: 'This key belongs to no tenant.' };
/** Webhook retries are not payment events, so health is also read on a timer (ms). */
const HEALTH_POLL_MS = 15_000;
/** How often the deposits panel is read again while connected (a BSC block is final in seconds). */
const DEPOSITS_POLL_MS = 5_000;
const DEPOSITS_SHOWN = 10;
const PAYMENT_ID = /^pay_[0-9A-Z]{26}$/;

const $ = (id) => document.getElementById(id);
const connection = $('connection');
const listStatus = $('list-status');

let session = null;
let filters = {};
/** `after` cursors of the pages before the current one; the current page is pages.length + 1. */
let pages = [];
let currentAfter = null;
let nextAfter = null;
let range = '24h';

const table = createPaymentsTable($('payment-rows'), $('empty'), (id, button) => detail.open(id, button));
const detail = createDetailPanel(() => session && session.key);
const chart = createVolumeChart($('chart'), $('chart-summary'));

function setState(state, text) {
  connection.dataset.state = state;
  connection.textContent = text;
}

function fillSelect(select, values, label) {
  values.forEach((value) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label ? label(value) : value;
    select.appendChild(option);
  });
}
fillSelect($('f-status'), STATUSES, statusLabel);
fillSelect($('f-currency'), CURRENCIES);
fillSelect($('f-method'), METHODS);
fillSelect($('f-country'), COUNTRIES);

/** The filters as the form says them; dates are whole UTC days, `to` inclusive. */
function readFilters() {
  const form = $('filters');
  const search = form.search.value.trim();
  const day = (value, plusDays) => (value ? new Date(Date.parse(value + 'T00:00:00Z') + plusDays * 86_400_000).toISOString() : '');
  return {
    status: form.status.value, currency: form.currency.value, method: form.method.value, country: form.country.value,
    createdFrom: day(form.from.value, 0), createdTo: day(form.to.value, 1),
    id: PAYMENT_ID.test(search) ? search : '',
    reference: search && !PAYMENT_ID.test(search) ? search : '',
  };
}

/** Whether `p` belongs in the table under the current filters (so a live event may show it). */
function matches(p) {
  const f = filters;
  if (f.id) return p.id === f.id;
  return (!f.status || p.status === f.status) && (!f.currency || p.destinationCurrency === f.currency)
    && (!f.method || p.paymentMethod === f.method) && (!f.country || p.country === f.country)
    && (!f.reference || p.reference === f.reference)
    && (!f.createdFrom || p.createdAt >= f.createdFrom) && (!f.createdTo || p.createdAt < f.createdTo);
}

function updatePager() {
  $('newer').disabled = pages.length === 0;
  $('older').disabled = !nextAfter;
  $('page-label').textContent = 'Page ' + (pages.length + 1);
}

/** Loads the page after `after` (null: the newest) under the current filters. */
async function loadPage(after) {
  const key = session.key;
  table.clear();
  listStatus.textContent = 'Loading payments…';
  try {
    if (filters.id) {
      nextAfter = null;
      const data = await request(key, PAYMENT, { id: filters.id }).catch((error) => {
        if (error.code === 'not_found') return { payment: null };
        throw error;
      });
      if (data.payment) table.upsert(paymentFromWire(data.payment), false);
      listStatus.textContent = data.payment ? 'Showing payment ' + filters.id + '.' : 'No payment ' + filters.id + '.';
    } else {
      const data = await request(key, PAYMENTS, { first: PAGE_SIZE, after: after, filter: paymentFilter(filters) });
      data.payments.edges.forEach((edge) => table.upsert(paymentFromWire(edge.node), false));
      nextAfter = data.payments.pageInfo.hasNextPage ? data.payments.pageInfo.endCursor : null;
      const n = data.payments.edges.length;
      listStatus.textContent = n === 0 ? 'No payments match.' : 'Showing ' + n + ' payment' + (n === 1 ? '' : 's') + ' on page ' + (pages.length + 1) + '.';
    }
    currentAfter = after;
  } catch (error) {
    listStatus.textContent = 'Could not load payments: ' + error.message;
  }
  updatePager();
}

async function refreshFigures() {
  if (!session) return;
  const key = session.key;
  const window = seriesWindow(range, new Date());
  const today = todayUtc(new Date());
  const [summary, series] = await Promise.all([
    request(key, summaryQuery(today.from, today.to), { groupBy: GROUP_BY.day }),
    request(key, seriesQuery(window.from, window.to), { groupBy: window.groupBy }),
  ]);
  renderTiles(summary);
  chart.update(window, series.analyticsSummary);
}

async function refreshHealth() {
  if (!session) return;
  const data = await request(session.key, WEBHOOK_HEALTH, {});
  renderWebhookHealth($('webhook-health'), data.webhookHealth);
}

/** The chain watchers' positions (GET /readyz) and the tenant's newest deposits; polled with the webhook health. */
async function refreshDeposits() {
  if (!session) return;
  const [chains, data] = await Promise.all([chainWatchers(), request(session.key, RECENT_DEPOSITS, { first: DEPOSITS_SHOWN })]);
  renderChainWatchers($('chain-watchers'), chains);
  renderDeposits($('deposits'), data.deposits.nodes);
}

/** Runs `task` at most once per `ms`, the last call winning (live events come in bursts). */
function throttled(task, ms) {
  let timer = null;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      task().catch((error) => setState('error', 'Could not refresh: ' + error.message));
    }, ms);
  };
}
const figuresSoon = throttled(refreshFigures, 1000);
const healthSoon = throttled(refreshHealth, 1500);

function onPayment(raw) {
  const payment = paymentFromWire(raw);
  const onFirstPage = pages.length === 0;
  const before = table.size();
  if (matches(payment)) {
    if (onFirstPage || table.has(payment.id)) table.upsert(payment, true);
  } else if (table.has(payment.id)) {
    table.remove(payment.id);
  }
  if (table.size() !== before) {
    const n = table.size();
    listStatus.textContent = n === 0 ? 'No payments match.' : 'Showing ' + n + ' payment' + (n === 1 ? '' : 's') + ' on page ' + (pages.length + 1) + ', live.';
  }
  detail.changed(payment.id);
  figuresSoon();
  healthSoon();
}

async function loadAll() {
  await Promise.all([loadPage(currentAfter), refreshFigures(), refreshHealth(), refreshDeposits()]);
}

function connect(key) {
  disconnect();
  setState('connecting', 'Connecting…');
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const current = { key: key, stopped: false };
  current.client = graphqlWs.createClient({
    url: protocol + '//' + location.host + '/graphql',
    connectionParams: { authorization: key },
    retryAttempts: Infinity,
    shouldRetry: (event) => !(event && REFUSED[event.code]),
    on: {
      // Also after every reconnection: what changed meanwhile is read again.
      connected: () => {
        loadAll().then(() => {
          if (!current.stopped) setState('live', 'Live: showing changes as they happen');
        }).catch((error) => setState('error', 'Could not load: ' + error.message));
      },
      closed: (event) => {
        if (current.stopped) return;
        if (event && REFUSED[event.code]) setState('error', REFUSED[event.code]);
        else setState('connecting', 'Connection lost; reconnecting…');
      },
    },
  });
  current.unsubscribe = current.client.subscribe({ query: PAYMENT_UPDATES }, {
    next: (result) => {
      if (result.data && result.data.paymentUpdated) onPayment(result.data.paymentUpdated);
    },
    error: (error) => {
      if (current.stopped) return;
      const code = error && error.code;
      setState('error', REFUSED[code] || 'Subscription failed: ' + (error && error.message ? error.message : JSON.stringify(error)));
    },
    complete: () => {},
  });
  current.healthTimer = setInterval(() => refreshHealth().catch(() => {}), HEALTH_POLL_MS);
  current.depositsTimer = setInterval(() => refreshDeposits().catch(() => {}), DEPOSITS_POLL_MS);
  session = current;
  $('connect').disabled = true;
  $('disconnect').disabled = false;
}

function disconnect() {
  if (!session) return;
  session.stopped = true;
  session.unsubscribe();
  session.client.dispose();
  clearInterval(session.healthTimer);
  clearInterval(session.depositsTimer);
  session = null;
  detail.close();
  $('connect').disabled = false;
  $('disconnect').disabled = true;
  setState('idle', 'Not connected');
}

$('connect-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const key = $('api-key').value.trim();
  if (!key) return;
  filters = readFilters();
  pages = [];
  currentAfter = null;
  connect(key);
});
$('disconnect').addEventListener('click', () => {
  disconnect();
  setTimeout(() => $('api-key').focus(), 0);
});
$('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  filters = readFilters();
  pages = [];
  if (session) loadPage(null);
});
$('clear-filters').addEventListener('click', () => {
  $('filters').reset();
  filters = {};
  pages = [];
  if (session) loadPage(null);
});
$('older').addEventListener('click', () => {
  if (!nextAfter) return;
  pages.push(currentAfter);
  loadPage(nextAfter).then(() => $('payments-heading').focus());
});
$('newer').addEventListener('click', () => {
  if (pages.length === 0) return;
  loadPage(pages.pop()).then(() => $('payments-heading').focus());
});
document.querySelectorAll('.range').forEach((button) => {
  button.addEventListener('click', () => {
    range = button.dataset.range;
    document.querySelectorAll('.range').forEach((b) => b.setAttribute('aria-pressed', String(b === button)));
    if (session) refreshFigures().catch((error) => setState('error', 'Could not load the chart: ' + error.message));
  });
});
