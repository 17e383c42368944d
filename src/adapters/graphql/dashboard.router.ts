import express, { type Router } from 'express';
import path from 'node:path';

/** The page's files (public/dashboard: HTML, JS, CSS; no build step). */
const PAGE_DIR = path.resolve(__dirname, '../../../public/dashboard');
/** graphql-ws's browser build (UMD, global `graphqlWs`), served from node_modules so the page works offline. */
const GRAPHQL_WS_UMD = path.join(path.dirname(require.resolve('graphql-ws/package.json')), 'umd', 'graphql-ws.min.js');
/** Chart.js's browser build (UMD, global `Chart`), beside its CommonJS entry in dist/ (the package exports no package.json). */
const CHART_JS_UMD = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');

/** A Host header that can stand in a CSP source: a name or a bracketed IPv6 address, with an optional port; nothing else. */
const PAGE_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The console's Content-Security-Policy for a page served under `host` (the request's Host header;
 * docs/decisions.md § Operations console): only our own files, and connections only back to the
 * page's own origin, over HTTP ('self') and over graphql-ws (`ws://<host>` and `wss://<host>`, the
 * page's own host and port: a browser refuses ws: from an https page anyway). Never any other
 * WebSocket origin, so a script slipped into the page cannot carry the pasted API key elsewhere. A
 * Host header that is not a plain host[:port] adds no WebSocket source: it cannot inject directives.
 */
export function consoleCsp(host: string | undefined): string {
  const sockets = host !== undefined && PAGE_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return `default-src 'self'; connect-src 'self'${sockets}; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'`;
}

/**
 * /dashboard: a static page where a person pastes an API key and watches the
 * tenant's payments appear and change status live over graphql-ws. Mount with `app.use('/dashboard', ...)`.
 */
export function dashboardRouter(): Router {
  const router = express.Router();
  router.use((req, res, next) => {
    res.set('Content-Security-Policy', consoleCsp(req.get('host')));
    res.set('Cache-Control', 'no-cache');
    next();
  });
  router.get('/vendor/graphql-ws.js', (_req, res) => res.type('application/javascript').sendFile(GRAPHQL_WS_UMD));
  router.get('/vendor/chart.js', (_req, res) => res.type('application/javascript').sendFile(CHART_JS_UMD));
  router.use(express.static(PAGE_DIR, { index: 'index.html', redirect: true }));
  return router;
}
