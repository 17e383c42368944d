import express, { type Router } from 'express';
import path from 'node:path';

/** The page's files (public/dashboard: HTML, JS, CSS; no build step). */
const PAGE_DIR = path.resolve(__dirname, '../../../public/dashboard');
/** graphql-ws's browser build (UMD, global `graphqlWs`), served from node_modules so the page works offline. */
const GRAPHQL_WS_UMD = path.join(path.dirname(require.resolve('graphql-ws/package.json')), 'umd', 'graphql-ws.min.js');
/** Chart.js's browser build (UMD, global `Chart`), beside its CommonJS entry in dist/ (the package exports no package.json). */
const CHART_JS_UMD = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');

/** Only our own files and ws(s) back to this origin; the API key the person pastes stays in the page. */
const CSP = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'";

/**
 * /dashboard: a static page where a person pastes an API key and watches the
 * tenant's payments appear and change status live over graphql-ws. Mount with `app.use('/dashboard', ...)`.
 */
export function dashboardRouter(): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set('Content-Security-Policy', CSP);
    res.set('Cache-Control', 'no-cache');
    next();
  });
  router.get('/vendor/graphql-ws.js', (_req, res) => res.type('application/javascript').sendFile(GRAPHQL_WS_UMD));
  router.get('/vendor/chart.js', (_req, res) => res.type('application/javascript').sendFile(CHART_JS_UMD));
  router.use(express.static(PAGE_DIR, { index: 'index.html', redirect: true }));
  return router;
}
