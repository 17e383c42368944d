import { el, duration, percent } from './format.js';

/** Start and end (ISO 8601) of today in UTC: the tiles' day. */
export function todayUtc(now) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { from: start.toISOString(), to: new Date(start.getTime() + 86_400_000).toISOString() };
}

function amounts(list, entries) {
  list.textContent = '';
  if (entries.length === 0) list.appendChild(el('li', 'muted', 'None yet'));
  entries.forEach((entry) => {
    const li = el('li');
    li.appendChild(el('span', 'amount', entry.amount));
    li.appendChild(el('span', 'currency', ' ' + entry.currency));
    list.appendChild(li);
  });
}

/**
 * Renders the summary tiles from summaryQuery's answer: today's group (absent when no payment was made
 * today) and the balances per stablecoin.
 */
export function renderTiles(data) {
  const today = data.analyticsSummary[0];
  amounts(document.getElementById('tile-fiat'), today ? today.fiatVolume : []);
  amounts(document.getElementById('tile-coin'), today ? today.stablecoinVolume : []);
  document.getElementById('tile-count').textContent = today ? String(today.count) : '0';
  document.getElementById('tile-rate').textContent = percent(today ? today.successRate : null);
  document.getElementById('tile-median').textContent = duration(today ? today.medianSecondsToSuccess : null);
  const rows = document.getElementById('balance-rows');
  rows.textContent = '';
  data.balances.forEach((b) => {
    const tr = document.createElement('tr');
    tr.dataset.currency = b.currency;
    tr.appendChild(el('th', null, b.currency)).setAttribute('scope', 'row');
    [b.available, b.held, b.inTransit].forEach((v) => tr.appendChild(el('td', 'num', v)));
    rows.appendChild(tr);
  });
}
