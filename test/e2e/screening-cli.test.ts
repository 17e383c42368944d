import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliCommand, exitWithin, killChildren, spawnChild } from '../support/child-process';
import { eventually, startTestService, type TestService } from '../support/test-service';

jest.setTimeout(90_000);

const FIXTURES = path.join(__dirname, '../fixtures/screening');

/**
 * `npm run cli -- screening:load` (docs/operations.md § Sanctions screening): a list file in its
 * published format is parsed, validated and stored with its version, and a running service reloads it
 * in the background; a bad file exits 2 and stores nothing.
 */
describe('operator CLI: screening:load', () => {
  let service: TestService;
  let url: string;
  beforeAll(async () => {
    // Reloads every second, so the service sees what the CLI (another process) stored without a restart.
    service = await startTestService({ SCREENING_RELOAD_SECONDS: '1' });
    url = service.config.DATABASE_URL!;
  });
  afterEach(() => killChildren());
  afterAll(async () => {
    await service.database.orm.em.getConnection().execute('delete from screening_lists');
    await service.close();
  });

  const cli = async (...args: string[]) => {
    const child = spawnChild(...cliCommand(...args), { DATABASE_URL: url });
    const exit = await exitWithin(child, 60_000);
    return { code: exit?.code, stdout: child.stdout.join('\n'), stderr: child.stderr.filter((l) => !l.startsWith('npm warn')).join('\n') };
  };
  const stored = async () => (await service.database.orm.em.getConnection().execute('select source, version, entry_count from screening_lists order by source')) as unknown[];

  it('a bad file, a file of the other list, or no file exits 2 and stores nothing; a good file is stored with its version', async () => {
    await service.database.orm.em.getConnection().execute('delete from screening_lists');
    const bad = path.join(os.tmpdir(), `sdn-${process.pid}.xml`);
    writeFileSync(bad, '<sdnList><sdnEntry><uid>1</uid>');
    const [truncated, wrongFormat, missing] = await Promise.all([
      cli('screening:load', '--source', 'ofac-sdn', '--file', bad),
      cli('screening:load', '--source', 'ofac-sdn', '--file', path.join(FIXTURES, 'un-consolidated.xml')),
      cli('screening:load', '--source', 'ofac-sdn', '--file', path.join(FIXTURES, 'absent.xml')),
    ]);
    expect([truncated.code, truncated.stderr]).toEqual([2, expect.stringMatching(/^validation_error: not well-formed XML/m)]);
    expect([wrongFormat.code, wrongFormat.stderr]).toEqual([2, expect.stringMatching(/^validation_error: not an OFAC SDN\.XML file/m)]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/--file is required/)]);
    expect(await stored()).toEqual([]);

    const good = await cli('screening:load', '--source', 'ofac-sdn', '--file', path.join(FIXTURES, 'ofac-sdn.xml'));
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ source: 'ofac-sdn', version: '11/25/2026', entries: 4 });
    expect(await stored()).toEqual([{ source: 'ofac-sdn', version: '11/25/2026', entry_count: 4 }]);

    // The running service reloads it in the background and shows it in its readiness details.
    const lists = await eventually(async () => {
      const ready = await service.call('GET', '/readyz');
      return ready.body.screening.lists.length > 0 ? ready.body.screening.lists : undefined;
    });
    expect(lists).toEqual([expect.objectContaining({ source: 'ofac-sdn', version: '11/25/2026', publishedAt: '2026-11-25T00:00:00.000Z', entries: 4 })]);
  });
});
