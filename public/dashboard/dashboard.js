/* global document, fetch, location, setTimeout, graphqlWs */
/**
 * Live payments dashboard: loads the tenant's latest payments over GraphQL/HTTP,
 * then applies every `paymentUpdated` event from graphql-ws as it arrives. No build step: plain
 * browser JavaScript, with graphql-ws's UMD build (global `graphqlWs`) served by the service.
 * The API key lives only in this closure: never in storage, never in the URL.
 */
(function () {
  'use strict';

  var FIELDS = 'id status paymentMethod sourceCurrency amountStablecoin fiatAmount destinationCurrency reference createdAt updatedAt failureReason';
  var LIST = 'query Dashboard { payments(first: 50) { edges { node { ' + FIELDS + ' } } } }';
  var UPDATES = 'subscription Dashboard { paymentUpdated { ' + FIELDS + ' } }';
  /** Close codes after which retrying with the same key is pointless. */
  var REFUSED = { 4401: 'The key was refused (invalid or revoked).', 4403: 'This key belongs to no tenant.' };

  var form = document.getElementById('connect-form');
  var keyInput = document.getElementById('api-key');
  var connectButton = document.getElementById('connect');
  var disconnectButton = document.getElementById('disconnect');
  var connection = document.getElementById('connection');
  var rows = document.getElementById('payment-rows');
  var empty = document.getElementById('empty');

  var session = null;

  function setState(state, text) {
    connection.dataset.state = state;
    connection.textContent = text;
  }

  function cell(text, className) {
    var td = document.createElement('td');
    td.textContent = text == null ? '' : String(text);
    if (className) td.className = className;
    return td;
  }

  function time(iso) {
    return new Date(iso).toLocaleTimeString();
  }

  /** Shows `payment`, unless the row already shows a later state of it (events and the list may cross). */
  function upsert(payment, highlight) {
    var row = rows.querySelector('tr[data-payment-id="' + payment.id + '"]');
    if (row && row.dataset.updatedAt > payment.updatedAt) return;
    // GraphQL enums are SCREAMING_SNAKE (PROVIDER_ACCEPTED); the page shows REST's strings.
    var status = payment.status.toLowerCase();
    var fresh = document.createElement('tr');
    fresh.dataset.paymentId = payment.id;
    fresh.dataset.status = status;
    fresh.dataset.updatedAt = payment.updatedAt;
    var badge = document.createElement('span');
    badge.className = 'status';
    badge.dataset.status = status;
    badge.textContent = status.replace('_', ' ');
    if (payment.failureReason) badge.title = payment.failureReason;
    var statusCell = document.createElement('td');
    statusCell.className = 'status-cell';
    statusCell.appendChild(badge);
    [
      cell(time(payment.createdAt)), cell(payment.id, 'id'), cell(payment.reference, 'ref'), cell(payment.paymentMethod),
      cell(payment.fiatAmount + ' ' + payment.destinationCurrency, 'num'),
      cell(payment.amountStablecoin + ' ' + payment.sourceCurrency, 'num'), statusCell, cell(time(payment.updatedAt)),
    ].forEach(function (td) { fresh.appendChild(td); });
    if (highlight) fresh.className = 'changed';
    if (row) rows.replaceChild(fresh, row);
    else insertByCreation(fresh, payment.createdAt);
    empty.hidden = rows.children.length > 0;
  }

  function insertByCreation(row, createdAt) {
    row.dataset.createdAt = createdAt;
    for (var i = 0; i < rows.children.length; i++) {
      if (rows.children[i].dataset.createdAt < createdAt) return rows.insertBefore(row, rows.children[i]);
    }
    rows.appendChild(row);
  }

  /** The latest 50 payments over HTTP (also after every reconnection, to catch up). */
  function loadList(key) {
    return fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
      body: JSON.stringify({ query: LIST }),
    }).then(function (res) { return res.json(); }).then(function (body) {
      if (body.errors) throw new Error(body.errors[0].message);
      body.data.payments.edges.forEach(function (edge) { upsert(edge.node, false); });
    });
  }

  function connect(key) {
    disconnect();
    rows.textContent = '';
    empty.hidden = false;
    setState('connecting', 'Connecting…');
    var protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    var current = { key: key, stopped: false };
    current.client = graphqlWs.createClient({
      url: protocol + '//' + location.host + '/graphql',
      connectionParams: { authorization: key },
      retryAttempts: Infinity,
      shouldRetry: function (event) { return !(event && REFUSED[event.code]); },
      on: {
        connected: function () {
          loadList(key).then(function () {
            if (!current.stopped) setState('live', 'Live: showing changes as they happen');
          }).catch(function (error) { setState('error', 'Could not load payments: ' + error.message); });
        },
        closed: function (event) {
          if (current.stopped) return;
          if (event && REFUSED[event.code]) setState('error', REFUSED[event.code]);
          else setState('connecting', 'Connection lost; reconnecting…');
        },
      },
    });
    current.unsubscribe = current.client.subscribe({ query: UPDATES }, {
      next: function (result) {
        if (result.data && result.data.paymentUpdated) upsert(result.data.paymentUpdated, true);
      },
      error: function (error) {
        if (current.stopped) return;
        var code = error && error.code;
        setState('error', REFUSED[code] || 'Subscription failed: ' + (error && error.message ? error.message : JSON.stringify(error)));
      },
      complete: function () {},
    });
    session = current;
    connectButton.disabled = true;
    disconnectButton.disabled = false;
  }

  function disconnect() {
    if (!session) return;
    session.stopped = true;
    session.unsubscribe();
    session.client.dispose();
    session = null;
    connectButton.disabled = false;
    disconnectButton.disabled = true;
    setState('idle', 'Not connected');
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var key = keyInput.value.trim();
    if (key) connect(key);
  });
  disconnectButton.addEventListener('click', function () {
    disconnect();
    setTimeout(function () { keyInput.focus(); }, 0);
  });
})();
