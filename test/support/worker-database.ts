/**
 * Jest setup file (jest.config.js `setupFiles`, README "Tests"): points TEST_DATABASE_URL at this
 * jest worker's own database, `payout_test_<pid>_w<JEST_WORKER_ID>`, which global-setup cloned from
 * the migrated template. Jest gives each test file a copy of process.env, so this reaches the file
 * and the child processes it starts with that environment.
 */

/** The name of worker `worker`'s database (1-based, as JEST_WORKER_ID) for the run whose template is `template`. */
export function workerDatabaseName(template: string, worker: number): string {
  return `${template}_w${worker}`;
}

const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
const template = process.env.TEST_DATABASE_TEMPLATE;
if (serverUrl && template) {
  // In band jest sets JEST_WORKER_ID to 1 as well.
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const workers = Number(process.env.TEST_DATABASE_WORKERS ?? '1');
  if (!Number.isInteger(worker) || worker < 1 || worker > workers) {
    throw new Error(`jest worker ${process.env.JEST_WORKER_ID} has no database: global-setup made ${workers} (maxWorkers)`);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${workerDatabaseName(template, worker)}`;
  process.env.TEST_DATABASE_URL = url.toString();
}
