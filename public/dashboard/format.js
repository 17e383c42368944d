/**
 * How the console writes values. Amounts stay the decimal strings the API sends (never parsed
 * into floats for display); times show in UTC so every operator reads the same clock.
 */

/** `2026-11-23 09:41:07` (UTC) from an ISO 8601 time. */
export function dateTime(iso) {
  if (!iso) return '';
  return iso.slice(0, 10) + ' ' + iso.slice(11, 19);
}

/** `09:41:07` (UTC). */
export function clock(iso) {
  return iso ? iso.slice(11, 19) : '';
}

/** `1500.00 KES`. */
export function money(amount, currency) {
  return amount + ' ' + currency;
}

/** A status as words: `provider accepted`. */
export function statusLabel(status) {
  return status.replace(/_/g, ' ');
}

/** `1.5 s`, `2 min 05 s`, `1 h 02 min` from seconds; an em dash when null. */
export function duration(seconds) {
  if (seconds == null) return '—';
  if (seconds < 60) return (Math.round(seconds * 10) / 10) + ' s';
  const s = Math.round(seconds);
  if (s < 3600) return Math.floor(s / 60) + ' min ' + String(s % 60).padStart(2, '0') + ' s';
  return Math.floor(s / 3600) + ' h ' + String(Math.floor((s % 3600) / 60)).padStart(2, '0') + ' min';
}

/** `97.5 %` from a decimal string rate in [0, 1] (string arithmetic: 4 places at most); an em dash when null. */
export function percent(rate) {
  if (rate == null) return '—';
  const [whole, fraction = ''] = String(rate).split('.');
  const digits = (whole + fraction.padEnd(4, '0')).replace(/^0+(?=\d)/, '');
  const padded = digits.padStart(3, '0');
  const integer = padded.slice(0, -2).replace(/^0+(?=\d)/, '');
  const decimals = padded.slice(-2).replace(/0+$/, '');
  return integer + (decimals ? '.' + decimals : '') + ' %';
}

/** A new element with a class and text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = String(text);
  return node;
}
