import { dateTime, el, money, statusLabel } from './format.js';

/** How far each state is along its path, to order two views of one payment with the same update time. */
const PROGRESS = { initiated: 0, provider_accepted: 1, succeeded: 2, failed: 2, refunded: 2 };

/** True when view `a` of a payment is older than view `b` (events and list reads may cross). */
function isOlder(a, b) {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt;
  return (PROGRESS[a.status] || 0) < (PROGRESS[b.status] || 0);
}

/** Newest first: creation time, then id (ULIDs sort by creation), as the API pages them. */
function isNewer(a, b) {
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.id > b.id;
}

/**
 * The payments table body: one row per payment, newest first, each with a button that opens its
 * detail panel. Rows carry data-payment-id, data-status and data-created-at for styling and tests.
 */
export function createPaymentsTable(tbody, empty, onOpen) {
  const shown = new Map();

  function cell(label, text, className) {
    const td = el('td', className, text);
    td.dataset.label = label;
    return td;
  }

  /** The failure's code (docs/api.md § Failure codes) above its reason, both as text; empty unless failed or refunded. */
  function failureCell(payment) {
    const td = cell('Failure reason', null, 'reason');
    if (payment.failureCode) td.appendChild(el('code', 'failure-code', payment.failureCode));
    if (payment.failureReason) td.appendChild(el('span', 'failure-reason', payment.failureReason));
    return td;
  }

  function rowOf(payment) {
    const tr = document.createElement('tr');
    tr.dataset.paymentId = payment.id;
    tr.dataset.status = payment.status;
    tr.dataset.createdAt = payment.createdAt;
    const open = el('button', 'link id', payment.id);
    open.type = 'button';
    open.setAttribute('aria-label', 'Details of payment ' + payment.id + (payment.reference ? ', reference ' + payment.reference : ''));
    open.addEventListener('click', () => onOpen(payment.id, open));
    const idCell = cell('Payment', null);
    const stack = idCell.appendChild(el('div', 'payment-cell'));
    stack.appendChild(open);
    if (payment.reference) stack.appendChild(el('span', 'ref', payment.reference));
    const badge = el('span', 'status', statusLabel(payment.status));
    badge.dataset.status = payment.status;
    const statusCell = cell('Status', null, 'status-cell');
    statusCell.appendChild(badge);
    // Date above time: the column stays narrow enough for every column to fit at 1280 px.
    const created = cell('Created', null, 'when');
    const stamp = dateTime(payment.createdAt).split(' ');
    created.appendChild(el('span', 'date', stamp[0]));
    created.appendChild(document.createTextNode(' '));
    created.appendChild(el('span', 'time', stamp[1]));
    [
      created,
      idCell,
      cell('Country', payment.country),
      cell('Method', payment.paymentMethod),
      cell('Recipient', payment.recipient, 'mono'),
      cell('Amount', money(payment.fiatAmount, payment.destinationCurrency), 'num'),
      cell('Charged', money(payment.amountStablecoin, payment.sourceCurrency), 'num'),
      statusCell,
      failureCell(payment),
    ].forEach((td) => tr.appendChild(td));
    return tr;
  }

  function place(tr, payment) {
    for (const other of tbody.children) {
      const seen = shown.get(other.dataset.paymentId);
      if (seen && isNewer(payment, seen)) return tbody.insertBefore(tr, other);
    }
    return tbody.appendChild(tr);
  }

  return {
    /** Empties the table. */
    clear() {
      tbody.textContent = '';
      shown.clear();
      empty.hidden = false;
    },
    /** How many payments the table shows. */
    size() {
      return shown.size;
    },
    /** Whether the table shows `id`. */
    has(id) {
      return shown.has(id);
    },
    /**
     * Shows `payment` in creation order, replacing an older view of it; a view older than the one
     * shown is ignored. `live` flashes the row. Returns whether the row changed.
     */
    upsert(payment, live) {
      const current = shown.get(payment.id);
      if (current && !isOlder(current, payment)) return false;
      const tr = rowOf(payment);
      if (live) tr.classList.add('changed');
      const old = tbody.querySelector('tr[data-payment-id="' + payment.id + '"]');
      shown.set(payment.id, payment);
      if (old) tbody.replaceChild(tr, old);
      else place(tr, payment);
      empty.hidden = true;
      return true;
    },
    /** Takes `id` off the table (it no longer matches the filters). */
    remove(id) {
      const old = tbody.querySelector('tr[data-payment-id="' + id + '"]');
      if (old) old.remove();
      shown.delete(id);
      empty.hidden = shown.size > 0;
    },
  };
}
