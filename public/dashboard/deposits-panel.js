import { dateTime, el, money } from './format.js';

/** Rows the deposits table keeps: the newest first, live ones added on top. */
export const DEPOSIT_ROWS = 10;

/** `0x1234…cdef`: long hashes and addresses shortened for the table; the full text is the title. */
function short(text) {
  return text && text.length > 16 ? text.slice(0, 8) + '…' + text.slice(-6) : (text || '');
}

function cell(text, className, title) {
  const td = el('td', className, text);
  if (title) td.title = title;
  return td;
}

/**
 * The console's deposits panel (docs/decisions.md § Operations console): the tenant's deposit
 * addresses per chain and stablecoin, its newest deposits kept live by `depositUpdated`, and each
 * chain watcher's lag from `GET /health` (blocks or slots behind the head, seconds since a pass
 * reached it). Every value is written as text. `nodes` holds the page's elements by role.
 */
export function createDepositsPanel(nodes) {
  const rows = new Map();

  function renderAddresses(addresses) {
    nodes.addresses.textContent = '';
    if (addresses.length === 0) {
      nodes.addresses.appendChild(el('li', 'muted', 'No deposit addresses: no chain serves this tenant.'));
      return;
    }
    addresses.forEach((a) => {
      const li = el('li', 'deposit-address');
      li.appendChild(el('span', 'chain', a.blockchain + ' · ' + a.currency));
      li.appendChild(el('code', 'address', a.address));
      if (a.ownerAddress !== a.address) li.appendChild(el('span', 'sub', 'owner ' + a.ownerAddress));
      nodes.addresses.appendChild(li);
    });
  }

  function row(d) {
    const tr = el('tr', 'deposit status-' + d.status);
    tr.dataset.depositId = d.id;
    tr.appendChild(cell(dateTime(d.createdAt)));
    tr.appendChild(cell(d.blockchain));
    tr.appendChild(cell(money(d.amount, d.currency), 'num'));
    tr.appendChild(cell(d.status, 'status'));
    tr.appendChild(cell(d.confirmations == null ? '—' : String(d.confirmations), 'num'));
    tr.appendChild(cell(short(d.txHash), 'hash', d.txHash));
    tr.appendChild(cell(d.source === 'operator' ? 'operator correction' : short(d.sender), 'sender', d.sender || ''));
    return tr;
  }

  function render() {
    nodes.rows.textContent = '';
    const list = [...rows.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0)).slice(0, DEPOSIT_ROWS);
    list.forEach((d) => nodes.rows.appendChild(row(d)));
    nodes.empty.hidden = list.length > 0;
  }

  return {
    /** Shows DEPOSITS' answer. */
    load(data) {
      renderAddresses(data.depositAddresses);
      rows.clear();
      data.deposits.nodes.forEach((d) => rows.set(d.id, d));
      render();
    },
    /** A live change (already read by depositFromWire): replaces or adds its row. */
    upsert(deposit) {
      rows.set(deposit.id, deposit);
      render();
    },
    /** Shows the chain watchers of `GET /health`'s `chains` (absent: no chain configured). */
    renderChains(chains) {
      nodes.chains.textContent = '';
      if (!chains || chains.length === 0) {
        nodes.chains.appendChild(el('li', 'muted', 'No chain is watched on this server.'));
        return;
      }
      chains.forEach((c) => {
        const behind = !c.watching || c.lagBlocks > 0;
        const li = el('li', behind ? 'watcher behind' : 'watcher ok');
        li.dataset.chain = c.chain;
        li.appendChild(el('span', 'health-state', c.chain + (c.watching ? '' : ' · not watched')));
        const seconds = c.lagSeconds == null ? 'never reached the head' : c.lagSeconds + ' s since it reached the head';
        li.appendChild(el('span', 'sub', 'head ' + c.head + ' · finalized ' + c.finalized + ' · ' + c.lagBlocks + ' behind · ' + seconds));
        nodes.chains.appendChild(li);
      });
    },
    clear() {
      rows.clear();
      render();
      nodes.addresses.textContent = '';
      nodes.chains.textContent = '';
    },
  };
}
