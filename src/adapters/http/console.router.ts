import express, { type Router } from 'express';
import path from 'node:path';

/** The operator console's files (public/console: HTML, JS, CSS; no build step). */
const PAGE_DIR = path.resolve(__dirname, '../../../public/console');

/**
 * Strict: our own files only, connections only to this origin (the REST API), no framing, forms
 * only back here (docs/decisions.md § Operators: the console).
 */
export const OPERATOR_CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * /console: the platform operators' console, signed in with an operator session (never an API
 * key). `options.json` tells the page whether identity-provider sign-in is configured.
 */
export function operatorConsoleRouter(options: { readonly oidc: boolean }): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set('Content-Security-Policy', OPERATOR_CONSOLE_CSP);
    res.set('Cache-Control', 'no-cache');
    next();
  });
  router.get('/options.json', (_req, res) => void res.json({ oidc: options.oidc }));
  router.use(express.static(PAGE_DIR, { index: 'index.html', redirect: true }));
  return router;
}
