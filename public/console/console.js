// The operator console (docs/decisions.md § Operators: the console): plain browser JavaScript, no
// build step. It talks to this origin's REST API with the HttpOnly session cookie (which this
// script never sees) and sends the session's CSRF token on every write. Every value is written
// with textContent, never parsed as markup.

const $ = (id) => document.getElementById(id);
let csrfToken = null;
let role = null;
let auditCursor = null;
let queueTimer = null;
// Each audit read has a number; an answer to an older read than the last one sent is dropped.
let auditRead = 0;

function status(text) {
  $('status').textContent = text;
}

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, data };
}

function show(section) {
  for (const id of ['sign-in', 'queues', 'refunds', 'reviews', 'audit-log']) $(id).hidden = id !== section;
}

async function signedOut(message) {
  csrfToken = null;
  clearInterval(queueTimer);
  $('who').hidden = true;
  show('sign-in');
  status(message ?? '');
  const options = await fetch('/console/options.json').then((r) => r.json()).catch(() => ({ oidc: false }));
  $('oidc').hidden = !options.oidc;
}

function signedIn(session) {
  csrfToken = session.csrfToken;
  role = session.operator.role;
  $('who').hidden = false;
  $('who-email').textContent = session.operator.email;
  $('who-role').textContent = session.operator.role;
  $('nav-audit').hidden = session.operator.role !== 'admin';
  status('');
  route();
}

function route() {
  if (csrfToken === null) return;
  clearInterval(queueTimer);
  if (location.hash === '#audit-log' && !$('nav-audit').hidden) {
    show('audit-log');
    loadAudit(true);
  } else if (location.hash === '#refunds') {
    show('refunds');
    loadRefunds();
  } else if (location.hash === '#reviews') {
    show('reviews');
    loadReviews();
  } else {
    show('queues');
    loadQueues();
    queueTimer = setInterval(loadQueues, 15000);
  }
}

async function loadQueues() {
  const res = await api('GET', '/v1/admin/queues');
  if (res.status === 401) return signedOut('Your session has ended; sign in again.');
  if (res.status !== 200) return status(`Queues could not be read (${res.status}).`);
  for (const tile of document.querySelectorAll('[data-queue]')) {
    const count = res.data[tile.dataset.queue];
    tile.querySelector('.count').textContent = String(count);
    tile.dataset.attention = String(count > 0 && tile.dataset.queue !== 'refundsPending');
  }
  $('stuck-sub').textContent = `at provider_accepted over ${res.data.stuckAfterMinutes} min`;
  $('queues-updated').textContent = `Updated ${new Date().toISOString().slice(11, 19)} UTC; every 15 s.`;
}

function auditQuery() {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData($('audit-filter'))) if (String(value).trim()) params.set(name, String(value).trim());
  return params;
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text ?? '';
  if (className) td.className = className;
  return td;
}

async function loadAudit(fresh) {
  const params = auditQuery();
  $('audit-export').href = `/v1/admin/audit-log/export?${params}`;
  params.set('limit', '50');
  if (!fresh && auditCursor) params.set('cursor', auditCursor);
  const read = ++auditRead;
  const res = await api('GET', `/v1/admin/audit-log?${params}`);
  if (read !== auditRead) return;
  if (res.status === 401) return signedOut('Your session has ended; sign in again.');
  if (res.status !== 200) return status(res.data?.message ?? `The audit log could not be read (${res.status}).`);
  if (fresh) $('audit-rows').replaceChildren();
  for (const row of res.data.data) {
    const tr = document.createElement('tr');
    tr.append(cell(row.at.replace('T', ' ').slice(0, 19)), cell(`${row.actorKind} ${row.actorId}`, 'mono'), cell(row.actorRole), cell(row.action),
      cell(`${row.targetType} ${row.targetId ?? ''}`, 'mono'), cell(row.reason), cell(row.requestId, 'mono'));
    $('audit-rows').append(tr);
  }
  auditCursor = res.data.nextCursor;
  $('audit-more').hidden = auditCursor === null;
}

/** The refunds in the chosen status (docs/api.md § Operators); a viewer sees them without actions. */
async function loadRefunds() {
  const res = await api('GET', `/v1/admin/refunds?status=${encodeURIComponent($('refunds-status').value)}&limit=200`);
  if (res.status === 401) return signedOut('Your session has ended; sign in again.');
  if (res.status !== 200) return status(res.data?.message ?? `Refunds could not be read (${res.status}).`);
  $('refund-rows').replaceChildren(...res.data.map(refundRow));
  if (res.data.length === 0) {
    const tr = document.createElement('tr');
    const td = cell('No refunds in this status.', 'sub');
    td.colSpan = 9;
    tr.append(td);
    $('refund-rows').append(tr);
  }
}

function refundRow(r) {
  const tr = document.createElement('tr');
  tr.dataset.refundId = r.refundId;
  tr.dataset.status = r.status;
  tr.append(cell(r.createdAt.replace('T', ' ').slice(0, 19)), cell(r.refundId, 'mono'), cell(`${r.tenantId} · ${r.paymentId}`, 'mono wrap'),
    cell(`${r.amount} ${r.currency}`, 'mono'), cell(`${r.blockchain} ${r.refundAddress}`, 'mono wrap'), cell(r.status),
    cell(r.failureReason ?? '', 'reason'), cell(r.txHash ?? '', 'mono wrap'));
  const action = cell('', 'refund-action');
  if (role === 'operator' || role === 'admin') {
    if (r.status === 'failed') action.append(button('Retry', () => refundAction(r, 'retry')));
    if (r.status === 'failed' || r.status === 'pending') {
      const input = document.createElement('input');
      input.placeholder = 'transaction hash or signature';
      input.setAttribute('aria-label', `Transaction that sent ${r.refundId}`);
      input.className = 'mono tx-input';
      action.append(input, button('Record sent', () => refundAction(r, 'sent', input.value.trim())));
    }
  }
  tr.append(action);
  return tr;
}

function button(text, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}

async function refundAction(r, move, txHash) {
  const res = await api('POST', `/v1/admin/refunds/${encodeURIComponent(r.refundId)}/${move}`, move === 'sent' ? { txHash } : undefined);
  if (res.status === 401) return signedOut('Your session has ended; sign in again.');
  status(res.status === 200 ? `${r.refundId}: ${res.data.status}.` : `${r.refundId}: ${res.data?.message ?? `refused (${res.status})`}`);
  await loadRefunds();
}

/** The compliance reviews in the chosen status (docs/api.md § Compliance reviews); a viewer sees them without actions. */
async function loadReviews() {
  const res = await api('GET', `/v1/admin/compliance-reviews?status=${encodeURIComponent($('reviews-status').value)}&limit=200`);
  if (res.status === 401) return signedOut('Your session has ended; sign in again.');
  if (res.status !== 200) return status(res.data?.message ?? `Reviews could not be read (${res.status}).`);
  $('review-rows').replaceChildren(...res.data.map(reviewRow));
  if (res.data.length === 0) {
    const tr = document.createElement('tr');
    const td = cell('No reviews in this status.', 'sub');
    td.colSpan = 7;
    tr.append(td);
    $('review-rows').append(tr);
  }
}

/** One hit as text: the list and entry, then the resembling name and its score, or the listed address. */
function hitText(h) {
  const what = h.kind === 'name' ? `name like "${h.matchedName}" (${h.score})` : `listed address ${h.address} (${h.currency})`;
  return `${h.source} #${h.entryId}: ${what}`;
}

function reviewRow(r) {
  const tr = document.createElement('tr');
  tr.dataset.subjectId = r.subjectId;
  tr.dataset.status = r.status;
  tr.append(cell(r.createdAt.replace('T', ' ').slice(0, 19)), cell(r.kind), cell(`${r.subjectId} · ${r.tenantId}`, 'mono wrap'),
    cell(r.hits.map(hitText).join('; '), 'wrap hits'), cell(r.status),
    cell(r.decidedAt ? `${r.decidedAt.replace('T', ' ').slice(0, 19)} by ${r.decidedBy}: ${r.reason}` : '', 'wrap'));
  const action = cell('', 'review-action');
  if (r.status === 'pending' && (role === 'operator' || role === 'admin')) {
    const reason = document.createElement('input');
    reason.placeholder = 'reason (required)';
    reason.setAttribute('aria-label', `Reason for the decision on ${r.subjectId}`);
    reason.className = 'reason-input';
    action.append(reason);
    if (r.clearable) action.append(button('Clear', () => decide(r, 'clear', reason.value.trim())));
    action.append(button('Reject', () => decide(r, 'reject', reason.value.trim())));
  }
  tr.append(action);
  return tr;
}

async function decide(r, move, reason) {
  if (!reason) return status(`${r.subjectId}: a reason is required.`);
  const res = await api('POST', `/v1/admin/compliance-reviews/${encodeURIComponent(r.subjectId)}/${move}`, { reason });
  if (res.status === 401) return signedOut('Your session has ended; sign in again.');
  status(res.status === 200 ? `${r.subjectId}: ${res.data.status}.` : `${r.subjectId}: ${res.data?.message ?? `refused (${res.status})`}`);
  await loadReviews();
}

$('reviews-filter').addEventListener('submit', (event) => {
  event.preventDefault();
  loadReviews();
});
$('refunds-filter').addEventListener('submit', (event) => {
  event.preventDefault();
  loadRefunds();
});
$('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await api('POST', '/v1/operator/sign-in', { email: $('email').value, password: $('password').value, totpCode: $('totp').value });
  $('password').value = '';
  $('totp').value = '';
  if (res.status !== 200) return status(res.data?.message ?? `Sign-in failed (${res.status}).`);
  signedIn(res.data);
});
$('sign-out').addEventListener('click', async () => {
  await api('POST', '/v1/operator/sign-out');
  signedOut('Signed out.');
});
$('sign-out-everywhere').addEventListener('click', async () => {
  const res = await api('POST', '/v1/operator/sign-out-everywhere');
  signedOut(res.status === 200 ? `Signed out everywhere (${res.data.sessionsEnded} sessions).` : 'Signed out.');
});
$('audit-filter').addEventListener('submit', (event) => {
  event.preventDefault();
  loadAudit(true);
});
$('audit-more').addEventListener('click', () => loadAudit(false));
window.addEventListener('hashchange', route);

const session = await api('GET', '/v1/operator/session');
if (session.status === 200) signedIn(session.data);
else signedOut();
