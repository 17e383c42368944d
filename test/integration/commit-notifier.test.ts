import { Client } from 'pg';
import pino from 'pino';
import { PgCommitNotifier } from '../../src/adapters/notifications/commit-notifier';
import { PgNotificationListener } from '../../src/adapters/notifications/notification-listener';
import { eventually } from '../support/test-service';

/** Wake-ups after commit (docs/decisions.md § Performance, "NOTIFY after commit") on the real database. */
describe('PgCommitNotifier', () => {
  const config = { connectionString: process.env.TEST_DATABASE_URL! };
  const logger = pino({ level: 'silent' });
  const channel = `notifier_test_${process.pid}`;
  let other: Client;
  const heard: string[] = [];

  beforeAll(async () => {
    // Another replica's LISTEN connection.
    other = new Client(config);
    await other.connect();
    other.on('notification', (msg) => {
      if (msg.channel === channel) heard.push(msg.payload ?? '');
    });
    await other.query(`listen "${channel}"`);
  });
  afterAll(() => other.end());
  beforeEach(() => {
    heard.length = 0;
  });

  it('delivers every notice locally at once, and sends those asked for during a send together, each once', async () => {
    const local: string[] = [];
    const notifier = new PgCommitNotifier(config, { deliverLocally: (_c, p) => local.push(p), ignoreSender: () => undefined }, logger);
    try {
      notifier.notify([{ channel, payload: 'a' }]);
      for (let i = 0; i < 10; i += 1) notifier.notify([{ channel, payload: 'a' }, { channel, payload: 'b' }]);
      expect(local).toHaveLength(21);
      await eventually(async () => (heard.length >= 3 ? true : undefined));
      await notifier.stop();
      // The first send carried `a`; the twenty asked for while it ran went as one statement: `a` and `b` once each.
      expect(heard).toEqual(['a', 'a', 'b']);
    } finally {
      await notifier.stop();
    }
  });

  it('sends nothing for a commit without notices, and after stop delivers locally only', async () => {
    const local: string[] = [];
    const notifier = new PgCommitNotifier(config, { deliverLocally: (_c, p) => local.push(p), ignoreSender: () => undefined }, logger);
    notifier.notify([]);
    await notifier.stop();
    notifier.notify([{ channel, payload: 'late' }]);
    await other.query('select pg_notify($1, $2)', [channel, 'marker']);
    await eventually(async () => (heard.includes('marker') ? true : undefined));
    expect(heard).toEqual(['marker']);
    expect(local).toEqual(['late']);
  });

  it('its own notices do not come back to this process\'s listener; other senders\' do', async () => {
    const listener = new PgNotificationListener(config, logger);
    const handled: string[] = [];
    listener.on(channel, (payload) => handled.push(payload));
    await listener.start();
    const notifier = new PgCommitNotifier(config, listener, logger);
    try {
      notifier.notify([{ channel, payload: 'mine' }]);
      // Sent through the database too: the other replica hears it.
      await eventually(async () => (heard.includes('mine') ? true : undefined));
      // A notice sent later by someone else arrives after any echo of ours would have.
      await other.query('select pg_notify($1, $2)', [channel, 'theirs']);
      await eventually(async () => (handled.includes('theirs') ? true : undefined));
      expect(handled).toEqual(['mine', 'theirs']);
    } finally {
      await notifier.stop();
      await listener.stop();
    }
  });
});
