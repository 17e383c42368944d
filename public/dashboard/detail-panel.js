import { request } from './api.js';
import { dateTime, el, money, statusLabel } from './format.js';
import {
  deliveryStatusFromWire, eventTypeFromWire, failureCodeFromWire, PAYMENT_DETAIL, paymentFromWire, RETRY_DELIVERY, statusFromWire,
} from './queries.js';

/**
 * The detail panel (a modal dialog: focus moves in, Escape closes, focus returns to the row's
 * button): a payment's facts, its history and its webhook deliveries with a retry button each.
 * While a delivery is pending it reads the deliveries again every second.
 */
export function createDetailPanel(getKey) {
  const dialog = document.getElementById('detail');
  const facts = document.getElementById('detail-facts');
  const timeline = document.getElementById('timeline');
  const deliveries = document.getElementById('delivery-rows');
  const deliveryStatus = document.getElementById('delivery-status');
  let openId = null;
  let returnFocus = null;
  let poll = null;

  document.getElementById('detail-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    openId = null;
    clearTimeout(poll);
    if (returnFocus && returnFocus.isConnected) returnFocus.focus();
  });

  function fact(term, value, className) {
    facts.appendChild(el('dt', null, term));
    const empty = value == null || value === '';
    facts.appendChild(el('dd', empty ? 'muted' : className, empty ? '—' : value));
  }

  function renderFacts(p) {
    facts.textContent = '';
    document.getElementById('detail-heading').textContent = 'Payment ' + p.id;
    const badge = el('span', 'status', statusLabel(p.status));
    badge.dataset.status = p.status;
    facts.appendChild(el('dt', null, 'Status'));
    facts.appendChild(el('dd')).appendChild(badge);
    fact('Reference', p.reference);
    fact('Created', dateTime(p.createdAt));
    fact('Updated', dateTime(p.updatedAt));
    fact('Recipient', p.country + ' · ' + p.paymentMethod + ' · ' + p.recipient);
    fact('Amount', money(p.fiatAmount, p.destinationCurrency));
    fact('Charged', money(p.amountStablecoin, p.sourceCurrency) + ' (fee ' + p.payoutFee + ', rate ' + p.exchangeRate + ')');
    fact('Provider reference', p.providerRef, 'mono');
    fact('Failure reason', p.failureReason, 'reason');
    fact('Failure code', p.failureCode, 'mono failure-code');
    if (p.refund) renderRefund(p.refund);
  }

  /** A live payment's onchain refund: where it stands and its transaction once known (docs/api.md § Refunds). */
  function renderRefund(r) {
    const badge = el('span', 'status refund-status', r.status);
    badge.dataset.refundStatus = r.status;
    facts.appendChild(el('dt', null, 'Refund'));
    const dd = facts.appendChild(el('dd', 'refund'));
    dd.appendChild(badge);
    dd.appendChild(el('span', 'sub', ' ' + money(r.amount, r.currency) + ' on ' + r.blockchain + ' to '));
    dd.appendChild(el('span', 'mono refund-address', r.refundAddress));
    fact('Refund transaction', r.txHash, 'mono refund-tx');
  }

  /**
   * The refund's steps after the payment's own events (docs/api.md § Refunds): owed since it was
   * written (`createdAt`), and sent or confirmed once its transaction is recorded (`sentAt`).
   */
  function renderRefundSteps(r) {
    const step = (at, label, status, tx) => {
      const li = el('li', 'refund-step');
      li.dataset.refundStatus = status;
      li.appendChild(el('time', 'when', dateTime(at))).setAttribute('datetime', at);
      const badge = el('span', 'status refund-status', label);
      badge.dataset.refundStatus = status;
      li.appendChild(badge);
      li.appendChild(el('span', 'sub', money(r.amount, r.currency) + ' on ' + r.blockchain));
      if (tx) li.appendChild(el('span', 'mono refund-tx', tx));
      timeline.appendChild(li);
    };
    step(r.createdAt, 'refund owed', 'pending');
    if (r.sentAt) step(r.sentAt, 'refund ' + r.status, r.status, r.txHash);
  }

  function renderTimeline(events, refund) {
    timeline.textContent = '';
    events.forEach((e) => {
      const status = statusFromWire(e.status);
      const li = el('li');
      li.dataset.status = status;
      li.appendChild(el('time', 'when', dateTime(e.at))).setAttribute('datetime', e.at);
      const badge = el('span', 'status', statusLabel(status));
      badge.dataset.status = status;
      li.appendChild(badge);
      li.appendChild(el('span', 'sub', e.type));
      const code = failureCodeFromWire(e.failureCode);
      if (code) li.appendChild(el('code', 'failure-code', code));
      if (e.failureReason) li.appendChild(el('span', 'reason', e.failureReason));
      timeline.appendChild(li);
    });
    if (refund) renderRefundSteps(refund);
  }

  function renderDeliveries(nodes) {
    deliveries.textContent = '';
    if (nodes.length === 0) {
      const tr = document.createElement('tr');
      const td = el('td', 'muted', 'No webhook deliveries for this payment.');
      td.colSpan = 6;
      tr.appendChild(td);
      deliveries.appendChild(tr);
    }
    nodes.forEach((d) => {
      const status = deliveryStatusFromWire(d.status);
      const tr = document.createElement('tr');
      tr.dataset.deliveryId = d.id;
      tr.dataset.status = status;
      const cell = (label, text, className) => {
        const td = el('td', className, text);
        td.dataset.label = label;
        return tr.appendChild(td);
      };
      cell('Event', eventTypeFromWire(d.eventType), 'event');
      cell('Endpoint', d.url, 'url');
      const badge = el('span', 'delivery', status);
      badge.dataset.status = status;
      cell('Status', null, 'delivery-cell').appendChild(badge);
      cell('Attempts', d.attempt, 'num attempts');
      cell('Last error', d.lastError || '', 'reason last-error');
      const retry = el('button', 'retry', 'Retry');
      retry.type = 'button';
      retry.setAttribute('aria-label', 'Retry ' + eventTypeFromWire(d.eventType) + ' to ' + d.url);
      retry.addEventListener('click', () => retryDelivery(d, retry));
      cell('', null, 'action').appendChild(retry);
      deliveries.appendChild(tr);
    });
    clearTimeout(poll);
    if (nodes.some((d) => deliveryStatusFromWire(d.status) === 'pending')) poll = setTimeout(refresh, 1000);
  }

  async function retryDelivery(delivery, button) {
    button.disabled = true;
    try {
      await request(getKey(), RETRY_DELIVERY, { id: delivery.id });
      deliveryStatus.textContent = 'Retry of ' + eventTypeFromWire(delivery.eventType) + ' scheduled.';
      await refresh();
    } catch (error) {
      deliveryStatus.textContent = 'Retry failed: ' + error.message;
      button.disabled = false;
    }
  }

  async function refresh() {
    const id = openId;
    if (!id) return;
    try {
      const data = await request(getKey(), PAYMENT_DETAIL, { id: id, entityId: id });
      if (openId !== id) return;
      const payment = paymentFromWire(data.paymentTimeline.payment);
      renderFacts(payment);
      renderTimeline(data.paymentTimeline.events, payment.refund);
      renderDeliveries(data.webhookEvents.nodes);
    } catch (error) {
      if (openId === id) deliveryStatus.textContent = 'Could not load the payment: ' + error.message;
    }
  }

  return {
    /** Opens the panel on payment `id`; `from` gets the focus back on close. */
    async open(id, from) {
      openId = id;
      returnFocus = from || null;
      deliveryStatus.textContent = '';
      facts.textContent = '';
      timeline.textContent = '';
      deliveries.textContent = '';
      document.getElementById('detail-heading').textContent = 'Payment ' + id;
      if (!dialog.open) dialog.showModal();
      await refresh();
    },
    /** Reads the panel again when it shows payment `id` (a live event arrived for it). */
    changed(id) {
      if (openId === id) refresh();
    },
    close() {
      if (dialog.open) dialog.close();
    },
  };
}
