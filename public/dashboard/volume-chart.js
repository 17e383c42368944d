import { GROUP_BY } from './queries.js';

/** The chart's ranges: how far back and how the analytics query groups them. */
const RANGES = {
  '24h': { label: 'last 24 hours', group: 'hour', step: 3_600_000, count: 24 },
  '7d': { label: 'last 7 days', group: 'day', step: 86_400_000, count: 7 },
  '30d': { label: 'last 30 days', group: 'day', step: 86_400_000, count: 30 },
};

/** The key analyticsSummary gives the period starting at `ms` (UTC hour or day). */
function keyOf(ms, group) {
  const iso = new Date(ms).toISOString();
  return group === 'hour' ? iso.slice(0, 13) + ':00:00Z' : iso.slice(0, 10);
}

/**
 * The periods of `range` ending with the current one (UTC hours or days): the query's range and
 * grouping, and each period's key, oldest first, so periods without payments still get a place.
 */
export function seriesWindow(range, now) {
  const r = RANGES[range];
  const current = r.group === 'hour'
    ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours())
    : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = current - (r.count - 1) * r.step;
  const keys = [];
  for (let i = 0; i < r.count; i++) keys.push(keyOf(first + i * r.step, r.group));
  return {
    range: range, label: r.label, keys: keys, groupBy: GROUP_BY[r.group],
    from: new Date(first).toISOString(), to: new Date(current + r.step).toISOString(),
  };
}

const COINS = [{ currency: 'USDC', color: '#0969da' }, { currency: 'USDT', color: '#1a7f37' }];

/**
 * Stacked bars of stablecoin volume per period (one per stablecoin) and a line of the success rate
 * (per cent, right axis), drawn with Chart.js. Amounts become numbers only as chart coordinates; the
 * figures the page writes out stay decimal strings.
 */
export function createVolumeChart(canvas, summary) {
  const chart = new Chart(canvas, {
    type: 'bar',
    data: { labels: [], datasets: [] },
    options: {
      animation: false,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { type: 'category', stacked: true, ticks: { maxRotation: 0, autoSkip: true, color: '#424a53' } },
        y: { type: 'linear', stacked: true, beginAtZero: true, title: { display: true, text: 'Volume (stablecoin)' }, ticks: { color: '#424a53' } },
        rate: { type: 'linear', position: 'right', min: 0, max: 100, grid: { drawOnChartArea: false }, title: { display: true, text: 'Success rate %' }, ticks: { color: '#424a53' } },
      },
      plugins: { legend: { position: 'bottom', labels: { color: '#24292f' } } },
    },
  });

  return {
    /** Draws `groups` (analyticsSummary's answer) over the periods of `window` (from seriesWindow). */
    update(window, groups) {
      const byKey = new Map(groups.map((g) => [g.key, g]));
      const volume = (group, currency) => {
        const entry = group && group.stablecoinVolume.find((v) => v.currency === currency);
        return entry ? Number(entry.amount) : 0;
      };
      chart.data.labels = window.keys.map((k) => (window.range === '24h' ? k.slice(11, 16) : k.slice(5)));
      chart.data.datasets = COINS.map((coin) => ({
        type: 'bar', label: coin.currency + ' volume', backgroundColor: coin.color, yAxisID: 'y', stack: 'volume',
        data: window.keys.map((k) => volume(byKey.get(k), coin.currency)),
      })).concat([{
        type: 'line', label: 'Success rate %', borderColor: '#bf3989', backgroundColor: '#bf3989', yAxisID: 'rate', spanGaps: true,
        data: window.keys.map((k) => {
          const g = byKey.get(k);
          return g && g.successRate != null ? Number(g.successRate) * 100 : null;
        }),
      }]);
      chart.update();
      const count = groups.reduce((n, g) => n + g.count, 0);
      summary.textContent = count + ' payment' + (count === 1 ? '' : 's') + ' in the ' + window.label + ' (UTC), in '
        + groups.length + ' of ' + window.keys.length + ' periods.';
      canvas.dataset.payments = String(count);
    },
  };
}
