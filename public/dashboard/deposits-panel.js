import { dateTime, duration, el, money } from './format.js';

/**
 * Renders the deposits panel: each watched chain's watcher as GET /readyz reports it (head,
 * finalized, lag in blocks and seconds, whether a replica holds its lease; docs/decisions.md §
 * Onchain deposits: watchers), then the tenant's newest deposits from RECENT_DEPOSITS.
 * `chains` is /readyz's `chains` (absent when no chain is watched).
 */
export function renderChainWatchers(list, chains) {
  list.textContent = '';
  if (!chains || chains.length === 0) {
    list.appendChild(el('li', 'muted', 'No chain is watched.'));
    return;
  }
  chains.forEach((c) => {
    const behind = !c.watching || c.lagBlocks > 0;
    const li = el('li', behind ? 'endpoint failing' : 'endpoint ok');
    li.dataset.chain = c.chain;
    li.appendChild(el('span', 'health-state', !c.watching ? 'Not watched' : c.lagBlocks > 0 ? 'Catching up' : 'Up to date'));
    li.appendChild(el('span', 'url', c.chain));
    li.appendChild(el('span', 'sub', 'head ' + c.head + ' · finalized ' + c.finalized + ' · scanned ' + (c.scannedTo == null ? '—' : c.scannedTo)
      + ' · lag ' + c.lagBlocks + ' blocks, ' + duration(c.lagSeconds)));
    list.appendChild(li);
  });
}

/** Renders the newest deposits (GraphQL Deposit nodes): when, chain, amount, status, transaction. */
export function renderDeposits(list, deposits) {
  list.textContent = '';
  if (deposits.length === 0) {
    list.appendChild(el('li', 'muted', 'No deposits yet.'));
    return;
  }
  deposits.forEach((d) => {
    const status = String(d.status).toLowerCase();
    const li = el('li', 'endpoint ' + (status === 'dropped' ? 'failing' : 'ok'));
    li.dataset.depositId = d.id;
    li.appendChild(el('span', 'health-state', status));
    li.appendChild(el('span', 'url', money(d.amount, d.currency) + ' on ' + d.blockchain));
    li.appendChild(el('span', 'sub', dateTime(d.createdAt) + ' · ' + d.txHash + (d.index ? ' #' + d.index : '')));
    list.appendChild(li);
  });
}
