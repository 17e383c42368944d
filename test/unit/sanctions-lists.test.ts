import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseOfacSdn } from '../../src/adapters/providers/sanctions/ofac-sdn.parser';
import { parseUnConsolidated } from '../../src/adapters/providers/sanctions/un-consolidated.parser';
import { SanctionsIndex } from '../../src/adapters/providers/sanctions/sanctions-index';
import { screenMoneyOut, staleLists } from '../../src/core/screening/screening-rules';
import { reviewTransition } from '../../src/core/screening/compliance-review';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/screening', name), 'utf8');

function lists() {
  const ofac = parseOfacSdn(fixture('ofac-sdn.xml'));
  const un = parseUnConsolidated(fixture('un-consolidated.xml'));
  if (!ofac.ok || !un.ok) throw new Error('fixtures must parse');
  const loadedAt = new Date('2026-11-26T08:00:00Z');
  return [{ ...ofac.value, loadedAt }, { ...un.value, loadedAt }];
}

/** The list parsers on fixtures in each list's published format, and the index's matching (docs/decisions.md § Screening). */
describe('sanctions lists: parsing and matching', () => {
  it('reads OFAC SDN.XML: names, aliases, digital currency addresses only, Publish_Date', () => {
    const [ofac] = lists();
    expect(ofac).toMatchObject({ source: 'ofac-sdn', version: '11/25/2026', publishedAt: new Date('2026-11-25T00:00:00Z') });
    expect(ofac!.entries[1]).toEqual({
      entryId: '90002', names: ['NORTHWIND DIGITAL EXCHANGE LTD', 'NORTHWIND EXCHANGE'],
      addresses: [{ currency: 'ETH', address: '0x7F367cC41522cE07553e823bf3be79A889DEbe1B' }, { currency: 'USDT', address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' }],
    });
  });

  it('reads the UN consolidated.xml: individuals and entities, name parts joined, empty aliases skipped, dateGenerated', () => {
    const [, un] = lists();
    expect(un!.publishedAt.toISOString()).toBe('2026-11-24T00:00:09.554Z');
    expect(un!.entries.map((e) => [e.entryId, e.names])).toEqual([
      ['6909001', ['JÉRÔME KAKWAVU BUKANDE', 'Jérôme Kakwavu', 'Commandant Jérôme']],
      ['6909002', ['ERIC BADEGE']],
      ['6909101', ['ЗАРЯ ТРЕЙДИНГ', 'Zarya Trading Company']],
    ]);
  });

  it.each([
    ['truncated', '<sdnList><sdnEntry>', /not well-formed/],
    ['declaring entities', '<!DOCTYPE sdnList [<!ENTITY a "aaaa">]><sdnList><sdnEntry><uid>1</uid><lastName>&a;</lastName></sdnEntry></sdnList>', /DOCTYPE/],
    ['another root', fixture('un-consolidated.xml'), /no sdnList/],
    ['no Publish_Date', '<sdnList><sdnEntry><uid>1</uid><lastName>X</lastName></sdnEntry></sdnList>', /Publish_Date/],
    ['no entries', '<sdnList><publshInformation><Publish_Date>11/25/2026</Publish_Date></publshInformation></sdnList>', /without any sdnEntry/],
    ['an entry without a name', '<sdnList><publshInformation><Publish_Date>11/25/2026</Publish_Date></publshInformation><sdnEntry><uid>1</uid></sdnEntry></sdnList>', /without uid or lastName/],
  ])('refuses an OFAC file that is %s', (_label, document, message) => {
    const parsed = parseOfacSdn(document);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect([parsed.code, parsed.message]).toEqual(['validation_error', expect.stringMatching(message)]);
  });

  it('refuses a UN file without dateGenerated or entries', () => {
    expect(parseUnConsolidated('<CONSOLIDATED_LIST><INDIVIDUALS/></CONSOLIDATED_LIST>')).toMatchObject({ ok: false, message: expect.stringMatching(/dateGenerated/) });
    expect(parseUnConsolidated('<CONSOLIDATED_LIST dateGenerated="2026-11-24T00:00:00Z"><INDIVIDUALS/></CONSOLIDATED_LIST>'))
      .toMatchObject({ ok: false, message: expect.stringMatching(/without any/) });
  });

  const index = new SanctionsIndex(lists(), 0.9);

  it.each([
    ['exact', 'Vladimir Petrovsky', '90001'],
    ['alias', 'Northwind Exchange', '90002'],
    ['reordered', 'Petrovsky Vladimir Ivanovich', '90001'],
    ['transliterated from Cyrillic', 'Петровский Владимир', '90001'],
    ['accents dropped', 'Jerome Kakwavu', '6909001'],
    ['listed in Cyrillic, asked in Latin', 'Zarya Treyding', '6909101'],
    ['misspelt', 'Erick Badeje', '6909002'],
  ])('a name %s hits its entry', (_label, name, entryId) => {
    expect(index.screenName(name).hits[0]).toMatchObject({ kind: 'name', entryId, score: expect.any(Number) });
  });

  it('a common name sharing a token with a listed name passes, with its nearest entry and score for the log', () => {
    const screened = index.screenName('Eric Baraka');
    expect(screened.hits).toEqual([]);
    expect(screened.nearest).toEqual({ source: 'un-consolidated', entryId: '6909002', score: expect.any(Number) });
    expect(screened.nearest!.score).toBeLessThan(0.9);
    expect(index.screenName('Jane Wanjiku')).toEqual({ hits: [] });
  });

  it('addresses match exactly: 0x case-insensitively, base58 as written', () => {
    expect(index.screenAddress('0x7f367cc41522ce07553e823bf3be79a889debe1b')).toEqual([
      { kind: 'address', source: 'ofac-sdn', entryId: '90002', currency: 'ETH', address: '0x7F367cC41522cE07553e823bf3be79A889DEbe1B' },
    ]);
    expect(index.screenAddress('5FHwkrdxntdK24hgQU8qgBjn35Y1zwhz1GZwCkP2UJnM')).toHaveLength(1);
    expect(index.screenAddress('5fhwkrdxntdk24hgqu8qgbjn35y1zwhz1gzwckp2ujnm')).toEqual([]);
  });

  it('without a list: a live money-out is refused when screening is required; sandbox and not-required pass', () => {
    const empty = new SanctionsIndex([], 0.9);
    const parties = { accountName: 'Vladimir Petrovsky', refundAddress: 'x' };
    expect(screenMoneyOut(empty, { required: true, maxAgeDays: 7, retryAfterS: 60 }, 'live', parties).kind).toBe('unavailable');
    expect(screenMoneyOut(empty, { required: true, maxAgeDays: 7, retryAfterS: 60 }, 'sandbox', parties).kind).toBe('pass');
    expect(screenMoneyOut(empty, { required: false, maxAgeDays: 7, retryAfterS: 60 }, 'live', parties).kind).toBe('pass');
    expect(screenMoneyOut(index, { required: true, maxAgeDays: 7, retryAfterS: 60 }, 'live', parties).kind).toBe('hold');
  });

  it('a list published more than SCREENING_MAX_AGE_DAYS ago is stale', () => {
    expect(staleLists(index.loaded(), 7, new Date('2026-12-01T00:00:00Z')).map((l) => l.source)).toEqual([]);
    expect(staleLists(index.loaded(), 7, new Date('2026-12-03T00:00:00Z')).map((l) => l.source)).toEqual(['ofac-sdn', 'un-consolidated']);
  });

  it('a review is decided once: clear or reject from pending only', () => {
    expect(reviewTransition('pending', 'clear')).toEqual({ ok: true, value: 'cleared' });
    expect(reviewTransition('pending', 'reject')).toEqual({ ok: true, value: 'rejected' });
    expect(reviewTransition('cleared', 'reject')).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(reviewTransition('rejected', 'clear')).toMatchObject({ ok: false, code: 'invalid_state' });
  });
});
