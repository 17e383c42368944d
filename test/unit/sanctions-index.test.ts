import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSanctionsList } from '../../src/adapters/providers/sanctions/list-parser';
import { addressKey, nameKey } from '../../src/adapters/providers/sanctions/name-normaliser';
import { sortedJaroWinkler, tokenJaroWinkler } from '../../src/adapters/providers/sanctions/name-similarity';
import { parseOfacSdn } from '../../src/adapters/providers/sanctions/ofac-sdn.parser';
import { SanctionsIndex, SwappableScreen } from '../../src/adapters/providers/sanctions/sanctions-index';
import { parseUnConsolidated } from '../../src/adapters/providers/sanctions/un-consolidated.parser';
import type { ListEntry, SanctionsList } from '../../src/core/screening/sanctions-screen';

/**
 * The sanctions adapters beyond the fixtures' happy paths (docs/decisions.md § Screening): the
 * parser chosen by source, each refusal of a malformed file, the index's blocking of common given
 * names (Index), its ranking and de-duplication of hits, and the swappable screen.
 */
const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/screening', name), 'utf8');
const loadedAt = new Date('2026-11-27T06:00:00Z');

function list(entries: ListEntry[], source: SanctionsList['source'] = 'ofac-sdn') {
  return { source, version: 'v1', publishedAt: new Date('2026-11-25T00:00:00Z'), loadedAt, entries };
}
const entry = (entryId: string, ...names: string[]): ListEntry => ({ entryId, names, addresses: [] });

/** Surnames whose tokens start with "z" then a letter other than those of the screened names' heads. */
function fillers(count: number, given: string): ListEntry[] {
  const letters = 'bcdfghjklmnpqrstvwxyz';
  return Array.from({ length: count }, (_, i) => entry(`${given}-${i}`, `${given} Zz${letters[i % 21]}${letters[Math.floor(i / 21) % 21]}${letters[Math.floor(i / 441) % 21]}`));
}

describe('parseSanctionsList', () => {
  it('reads each source in its own format', () => {
    const ofac = parseSanctionsList('ofac-sdn', fixture('ofac-sdn.xml'));
    const un = parseSanctionsList('un-consolidated', fixture('un-consolidated.xml'));
    expect([ofac.ok && ofac.value.source, un.ok && un.value.source]).toEqual(['ofac-sdn', 'un-consolidated']);
    expect(parseSanctionsList('ofac-sdn', fixture('un-consolidated.xml'))).toMatchObject({ ok: false, message: expect.stringMatching(/no sdnList/) });
    expect(parseSanctionsList('un-consolidated', fixture('ofac-sdn.xml'))).toMatchObject({ ok: false, message: expect.stringMatching(/no CONSOLIDATED_LIST/) });
  });
});

describe('list file refusals', () => {
  const ofacHead = '<sdnList><publshInformation><Publish_Date>11/25/2026</Publish_Date></publshInformation>';

  it('each refusal names the file as the field at fault; a namespace prefix is dropped', () => {
    const refusal = (message: string) => ({ ok: false, code: 'validation_error', message, details: { field: 'file' } });
    expect(parseOfacSdn('<!DOCTYPE x><sdnList/>')).toEqual(refusal('a DOCTYPE is not accepted in a list file'));
    expect(parseOfacSdn('<sdnList><sdnEntry>')).toEqual(expect.objectContaining({ ok: false, code: 'validation_error', details: { field: 'file' } }));
    expect(parseUnConsolidated('<CONSOLIDATED_LIST dateGenerated="2026-11-24T00:00:00Z"><INDIVIDUALS>'))
      .toEqual(expect.objectContaining({ ok: false, message: expect.stringMatching(/^not well-formed XML: /), details: { field: 'file' } }));
    expect(parseOfacSdn('<list/>')).toEqual(refusal('not an OFAC SDN.XML file: no sdnList element'));
    expect(parseOfacSdn(`${ofacHead}</sdnList>`)).toEqual(refusal('OFAC SDN.XML without any sdnEntry'));
    expect(parseOfacSdn(`${ofacHead}<sdnEntry>stray text</sdnEntry></sdnList>`)).toEqual(refusal('OFAC SDN.XML without any sdnEntry'));
    expect(parseUnConsolidated('<CONSOLIDATED_LIST dateGenerated="2026-11-24T00:00:00Z"><INDIVIDUALS/></CONSOLIDATED_LIST>'))
      .toEqual(refusal('UN consolidated list without any INDIVIDUAL or ENTITY'));
    const prefixed = parseOfacSdn(`<s:sdnList xmlns:s="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">
      <s:publshInformation><s:Publish_Date>11/25/2026</s:Publish_Date></s:publshInformation><s:sdnEntry><s:uid>3</s:uid><s:lastName>X</s:lastName></s:sdnEntry></s:sdnList>`);
    expect(prefixed.ok && prefixed.value.entries).toEqual([entry('3', 'X')]);
  });

  it.each(['x11/25/2026', '11/25/2026x', '1/25/2026'])('OFAC: a Publish_Date of %s is refused', (date) => {
    expect(parseOfacSdn(`<sdnList><publshInformation><Publish_Date>${date}</Publish_Date></publshInformation><sdnEntry><uid>1</uid><lastName>X</lastName></sdnEntry></sdnList>`))
      .toMatchObject({ ok: false, message: 'OFAC SDN.XML without a Publish_Date in MM/DD/YYYY' });
  });

  it('OFAC: a Publish_Date not in MM/DD/YYYY, an entry without uid (naming how many were read before it)', () => {
    expect(parseOfacSdn('<sdnList><publshInformation><Publish_Date>2026-11-25</Publish_Date></publshInformation><sdnEntry><uid>1</uid><lastName>X</lastName></sdnEntry></sdnList>'))
      .toEqual({ ok: false, code: 'validation_error', message: 'OFAC SDN.XML without a Publish_Date in MM/DD/YYYY', details: { field: 'file' } });
    expect(parseOfacSdn(`${ofacHead}<sdnEntry><uid>1</uid><lastName>A</lastName></sdnEntry><sdnEntry><lastName>B</lastName></sdnEntry></sdnList>`))
      .toEqual({ ok: false, code: 'validation_error', message: 'an sdnEntry without uid or lastName (after 1 entries)', details: { field: 'file' } });
  });

  it('OFAC: an alias without a name and an address without a number are left out; a first name alone is a name', () => {
    const parsed = parseOfacSdn(`${ofacHead}<sdnEntry><uid>7</uid><firstName>  Amina  </firstName>
      <akaList><aka><uid>8</uid><type>a.k.a.</type></aka><aka><lastName>Amina K</lastName></aka><aka><firstName>Amina</firstName><lastName>KAMAU</lastName></aka></akaList>
      <idList><id><idType>Digital Currency Address - XBT</idType></id><id><idType>Digital Currency Address - ETH</idType><idNumber>0xabc</idNumber></id></idList>
      </sdnEntry></sdnList>`);
    expect(parsed.ok && parsed.value.entries).toEqual([{ entryId: '7', names: ['Amina', 'Amina K', 'Amina KAMAU'], addresses: [{ currency: 'ETH', address: '0xabc' }] }]);
    expect(parsed.ok && parsed.value.publishedAt).toEqual(new Date('2026-11-25T00:00:00Z'));
  });

  it('UN: not a consolidated list, a dateGenerated that is not a time, an entry without DATAID or name', () => {
    const refusal = (message: string) => ({ ok: false, code: 'validation_error', message, details: { field: 'file' } });
    expect(parseUnConsolidated('<sdnList/>')).toEqual(refusal('not a UN consolidated list: no CONSOLIDATED_LIST element'));
    expect(parseUnConsolidated('<CONSOLIDATED_LIST dateGenerated="yesterday"><INDIVIDUALS/></CONSOLIDATED_LIST>'))
      .toEqual(refusal('UN consolidated list without a valid dateGenerated attribute'));
    const head = '<CONSOLIDATED_LIST dateGenerated="2026-11-24T00:00:00Z">';
    expect(parseUnConsolidated(`${head}<INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL><INDIVIDUAL><FIRST_NAME>B</FIRST_NAME></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>`))
      .toEqual(refusal('an INDIVIDUAL or ENTITY without DATAID or name (after 1 entries)'));
    expect(parseUnConsolidated(`${head}<ENTITIES><ENTITY><DATAID>2</DATAID></ENTITY></ENTITIES></CONSOLIDATED_LIST>`))
      .toEqual(refusal('an INDIVIDUAL or ENTITY without DATAID or name (after 0 entries)'));
  });

  it('UN: the four name parts joined by single spaces; an entity alone is a list', () => {
    const parsed = parseUnConsolidated(`<CONSOLIDATED_LIST dateGenerated="2026-11-24T00:00:00Z"><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID>
      <FIRST_NAME>A</FIRST_NAME><SECOND_NAME> B  C </SECOND_NAME><THIRD_NAME>T</THIRD_NAME><FOURTH_NAME>D</FOURTH_NAME></INDIVIDUAL></INDIVIDUALS>
      <ENTITIES><ENTITY><DATAID>2</DATAID><FIRST_NAME>E Ltd</FIRST_NAME><ENTITY_ALIAS><ALIAS_NAME>E</ALIAS_NAME></ENTITY_ALIAS></ENTITY></ENTITIES></CONSOLIDATED_LIST>`);
    expect(parsed.ok && parsed.value.entries).toEqual([entry('1', 'A B C T D'), entry('2', 'E Ltd', 'E')]);
    const entities = parseUnConsolidated('<CONSOLIDATED_LIST dateGenerated="2026-11-24T00:00:00Z"><ENTITIES><ENTITY><DATAID>2</DATAID><FIRST_NAME>E</FIRST_NAME></ENTITY></ENTITIES></CONSOLIDATED_LIST>');
    expect(entities.ok && entities.value.entries).toEqual([entry('2', 'E')]);
  });
});

describe('name normalisation and scoring', () => {
  it('a name key is its transliterated, lower-cased tokens, sorted, joined by single spaces', () => {
    expect(nameKey('  KAKWAVU, Jérôme--ii ')).toBe('ii jerome kakwavu');
    expect(addressKey(' 0xABCDEF0123456789abcdef0123456789ABCDEF01 ')).toBe('0xabcdef0123456789abcdef0123456789abcdef01');
    expect(addressKey(' 0xABCDEF ')).toBe('0xABCDEF');
    // Only a whole 0x address is case-insensitive.
    expect(addressKey('T0xABCDEF0123456789abcdef0123456789ABCDEF01')).toBe('T0xABCDEF0123456789abcdef0123456789ABCDEF01');
    expect(addressKey('0xABCDEF0123456789abcdef0123456789ABCDEF01Z')).toBe('0xABCDEF0123456789abcdef0123456789ABCDEF01Z');
  });

  it('sortedJaroWinkler compares the whole token-sorted names; tokenJaroWinkler token by token, 0 for an empty name', () => {
    expect(sortedJaroWinkler(['eric', 'badege'], ['eric', 'badege'])).toBe(1);
    expect(sortedJaroWinkler(['ab', 'cd'], ['abc', 'd'])).toBeCloseTo(0.9467, 4);
    expect(tokenJaroWinkler(['ab', 'cd'], ['abc', 'd'])).toBeCloseTo(0.4556, 4);
    expect(tokenJaroWinkler([], ['eric'])).toBe(0);
    expect(tokenJaroWinkler(['eric'], [])).toBe(0);
  });
});

describe('SanctionsIndex', () => {
  it('ranks hits by score, one per entry with its best-scoring name, and counts every distinct name once', () => {
    const index = new SanctionsIndex([list([
      entry('1', 'Samuel Chebet', 'Samuel Chebet', 'Samual Chebet'),
      entry('2', 'Samuel Chebett'),
      entry('3', '---'),
    ])], 0.9);
    expect(index.names).toBe(3);
    expect(index.screenName('Samuel Chebet').hits.map((h) => [h.entryId, h.matchedName, h.score])).toEqual([
      ['1', 'Samuel Chebet', 1], ['2', 'Samuel Chebett', expect.any(Number)],
    ]);
    expect(index.screenName('Samual Chebet').hits[0]).toMatchObject({ entryId: '1', matchedName: 'Samual Chebet', score: 1 });
    expect(index.screenName(' -- ')).toEqual({ hits: [] });
  });

  it('hits are sorted by score whatever the list order; a name scoring exactly the threshold is a hit; a hit hides the nearest', () => {
    const index = new SanctionsIndex([list([entry('low', 'Samuel Chebett'), entry('exact', 'Samuel Chebet', 'Chebet Samuel'), entry('far', 'Samuel Otieno')])], 0.9);
    const screened = index.screenName('Samuel Chebet');
    expect(screened).toEqual({ hits: [
      { kind: 'name', source: 'ofac-sdn', entryId: 'exact', matchedName: 'Samuel Chebet', score: 1 },
      { kind: 'name', source: 'ofac-sdn', entryId: 'low', matchedName: 'Samuel Chebett', score: expect.any(Number) },
    ] });
    expect(screened.hits[1]!.score).toBeLessThan(1);
    expect(new SanctionsIndex([list([entry('1', 'Eric Badege')])], 1).screenName('Badege Eric').hits.map((h) => h.entryId)).toEqual(['1']);
  });

  it('the nearest is the first of equal scores', () => {
    const index = new SanctionsIndex([list([entry('first', 'Eric Badege'), entry('second', 'Eric Badege')])], 0.999);
    expect(index.screenName('Eric Badeg').nearest?.entryId).toBe('first');
  });

  it('without a hit, the nearest is the best score under the threshold', () => {
    const index = new SanctionsIndex([list([entry('1', 'Eric Badege'), entry('2', 'Eric Baraka Mwangi')])], 0.99);
    expect(new SanctionsIndex([list([entry('2', 'Eric Baraka Mwangi'), entry('1', 'Eric Badege')])], 0.99).screenName('Eric Baraka').nearest?.entryId).toBe('2');
    // The "bara" block is scored before "eric": its worse name must not stay the nearest.
    expect(new SanctionsIndex([list([entry('worse', 'Baraka Zuberi'), entry('better', 'Eric Baroka')])], 0.99).screenName('Eric Baraka').nearest?.entryId).toBe('better');
    const screened = index.screenName('Eric Baraka');
    expect(screened).toEqual({ hits: [], nearest: { source: 'ofac-sdn', entryId: '2', score: tokenJaroWinkler(['baraka', 'eric'], ['baraka', 'eric', 'mwangi']) } });
  });

  it('an address listed by two entries answers both; the lists loaded are described', () => {
    const shared = { currency: 'ETH', address: '0x7F367cC41522cE07553e823bf3be79A889DEbe1B' };
    const index = new SanctionsIndex([
      list([{ entryId: '1', names: ['A'], addresses: [shared] }]),
      list([{ entryId: '9', names: ['B'], addresses: [shared] }], 'un-consolidated'),
    ], 0.9);
    expect(index.screenAddress(shared.address.toLowerCase()).map((h) => [h.kind, h.source, h.entryId])).toEqual([['address', 'ofac-sdn', '1'], ['address', 'un-consolidated', '9']]);
    expect(index.loaded()).toEqual([
      { source: 'ofac-sdn', version: 'v1', publishedAt: new Date('2026-11-25T00:00:00Z'), loadedAt, entries: 1 },
      { source: 'un-consolidated', version: 'v1', publishedAt: new Date('2026-11-25T00:00:00Z'), loadedAt, entries: 1 },
    ]);
  });

  describe('blocks of common given names (more than 400 names)', () => {
    it('a block of exactly 400 names is still scored whole', () => {
      const index = new SanctionsIndex([list([...fillers(399, 'Mohammed'), entry('target', 'Mohammed Okonkwo')])], 0.92);
      // "pkon" is no block: only the 400 names of "moha", all scored (no head filter).
      expect(index.screenName('Mohammed Pkonkwo').hits.map((h) => h.entryId)).toEqual(['target']);
    });

    it('a name with a smaller block is scored against it only', () => {
      const index = new SanctionsIndex([list([...fillers(400, 'Mohammed'), entry('target', 'Mohammed Okonkwo'), entry('misspelt', 'Mohammed Pkonkwo')])], 0.8);
      // "Mohammed Pkonkwo" would hit, but it shares only the 402 names of "moha" with the name, not its block "okon".
      expect(index.screenName('Mohammed Okonkwo')).toEqual({
        hits: [{ kind: 'name', source: 'ofac-sdn', entryId: 'target', matchedName: 'Mohammed Okonkwo', score: 1 }],
      });
    });

    it('when every block is large, only the smallest is scored, and only its names sharing a head of another token', () => {
      const index = new SanctionsIndex([list([
        ...fillers(420, 'Mohammed'), ...fillers(401, 'Ahmed'), entry('ahmed-okonkwo', 'Ahmed Okonkwo'), entry('mohammed-okonkwo', 'Mohammed Okonkwo'),
      ])], 0.8);
      // "okin" is no block; "ahme" (402) is smaller than "moha" (421): of it, only the name with a token starting "ok" is scored.
      expect(index.screenName('Ahmed Mohammed Okinkwo')).toEqual({
        hits: [{ kind: 'name', source: 'ofac-sdn', entryId: 'ahmed-okonkwo', matchedName: 'Ahmed Okonkwo', score: expect.any(Number) }],
      });
      // The smaller block is chosen whichever token comes first.
      const reversed = new SanctionsIndex([list([
        ...fillers(430, 'Ahmed'), ...fillers(401, 'Mohammed'), entry('ahmed-okonkwo', 'Ahmed Okonkwo'), entry('mohammed-okonkwo', 'Mohammed Okonkwo'),
      ])], 0.8);
      expect(reversed.screenName('Ahmed Mohammed Okinkwo').hits.map((h) => h.entryId)).toEqual(['mohammed-okonkwo']);
      // A misspelling in the first two letters of the rare token is not found (the recall blocking costs).
      expect(index.screenName('Mohammed Pkonkwo')).toEqual({ hits: [] });
      // A single common token: its whole block is scored.
      expect(index.screenName('Mohammed').hits.map((h) => h.entryId)).toContain('mohammed-okonkwo');
    });
  });
});

describe('SwappableScreen', () => {
  it('answers from the current index until another is swapped in', () => {
    const first = new SanctionsIndex([list([{ entryId: '1', names: ['Eric Badege'], addresses: [{ currency: 'SOL', address: 'So1' }] }])], 0.9);
    const second = new SanctionsIndex([list([entry('2', 'Zarya Trading')], 'un-consolidated')], 0.9);
    const screen = new SwappableScreen(first);
    expect([screen.screenName('Eric Badege').hits.length, screen.screenAddress('So1').length, screen.loaded()[0]!.source]).toEqual([1, 1, 'ofac-sdn']);
    screen.swap(second);
    expect([screen.screenName('Eric Badege').hits.length, screen.screenAddress('So1').length, screen.loaded()[0]!.source]).toEqual([0, 0, 'un-consolidated']);
    expect(screen.screenName('Zarya Trading').hits.map((h) => h.entryId)).toEqual(['2']);
  });
});
