import { dateTime, el } from './format.js';
import { deliveryStatusFromWire } from './queries.js';

/** Renders WEBHOOK_HEALTH's answer: failing endpoints first, each with its last error. */
export function renderWebhookHealth(list, endpoints) {
  list.textContent = '';
  if (endpoints.length === 0) {
    list.appendChild(el('li', 'muted', 'No webhook endpoints.'));
    return;
  }
  endpoints.forEach((e) => {
    const li = el('li', e.failing ? 'endpoint failing' : 'endpoint ok');
    li.dataset.webhookId = e.webhookId;
    const state = e.failing ? 'Failing' : 'Healthy';
    li.appendChild(el('span', 'health-state', state));
    li.appendChild(el('span', 'url', e.url));
    const status = deliveryStatusFromWire(e.status);
    const counts = e.delivered + ' delivered · ' + e.retrying + ' retrying · ' + e.failed + ' failed'
      + (status !== 'active' ? ' · endpoint ' + status : '');
    li.appendChild(el('span', 'sub', counts));
    if (e.lastError) li.appendChild(el('span', 'last-error', 'Last error ' + dateTime(e.lastErrorAt) + ': ' + e.lastError));
    list.appendChild(li);
  });
}
