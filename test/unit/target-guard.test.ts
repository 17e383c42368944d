import { blockedAddressReason, DnsTargetGuard } from '../../src/adapters/providers/target-guard';

/**
 * Every range a webhook may never reach (docs/decisions.md § Webhooks), at both edges: the first and
 * last address inside are blocked; the address just before and just after are allowed, unless that
 * neighbour lies in another blocked range (then `null` here, and the neighbouring row covers it).
 * Written out by hand, not derived from the guard's own list, so a range dropped or narrowed there fails here.
 */
const IPV4: ReadonlyArray<readonly [range: string, first: string, last: string, before: string | null, after: string | null]> = [
  ['0.0.0.0/8 "this network"', '0.0.0.0', '0.255.255.255', null, '1.0.0.0'],
  ['10.0.0.0/8 private', '10.0.0.0', '10.255.255.255', '9.255.255.255', '11.0.0.0'],
  ['100.64.0.0/10 CGNAT', '100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
  ['127.0.0.0/8 loopback', '127.0.0.0', '127.255.255.255', '126.255.255.255', '128.0.0.0'],
  ['169.254.0.0/16 link-local (cloud metadata)', '169.254.0.0', '169.254.255.255', '169.253.255.255', '169.255.0.0'],
  ['172.16.0.0/12 private', '172.16.0.0', '172.31.255.255', '172.15.255.255', '172.32.0.0'],
  ['192.0.0.0/24 IETF protocol assignments', '192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
  ['192.0.2.0/24 TEST-NET-1', '192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
  ['192.168.0.0/16 private', '192.168.0.0', '192.168.255.255', '192.167.255.255', '192.169.0.0'],
  ['198.18.0.0/15 benchmarking', '198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
  ['198.51.100.0/24 TEST-NET-2', '198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
  ['203.0.113.0/24 TEST-NET-3', '203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
  // Multicast and reserved meet at 240.0.0.0: one block from 224.0.0.0 to the broadcast address.
  ['224.0.0.0/4 multicast', '224.0.0.0', '239.255.255.255', '223.255.255.255', null],
  ['240.0.0.0/4 reserved and broadcast', '240.0.0.0', '255.255.255.255', null, null],
];

const IPV6: ReadonlyArray<readonly [range: string, first: string, last: string, before: string | null, after: string | null]> = [
  // Holds :: (unspecified) and ::1 (loopback) too.
  ['::/96 IPv4-compatible', '::', '::ffff:ffff', null, '::1:0:0'],
  ['::ffff:0:0:0/96 IPv4-translated', '::ffff:0:0:0', '::ffff:0:ffff:ffff', '::fffe:ffff:ffff:ffff', '::ffff:1:0:0'],
  ['64:ff9b::/96 NAT64', '64:ff9b::', '64:ff9b::ffff:ffff', '64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', '64:ff9b::1:0:0'],
  ['64:ff9b:1::/48 local NAT64', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', '64:ff9b:0:ffff:ffff:ffff:ffff:ffff', '64:ff9b:2::'],
  ['100::/64 discard', '100::', '100::ffff:ffff:ffff:ffff', 'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '100:0:0:1::'],
  ['2001::/32 Teredo', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff', '2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:1::'],
  ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'],
  ['2002::/16 6to4', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2003::'],
  ['fc00::/7 unique local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe00::'],
  // Link-local, site-local and multicast meet: one block from fe80:: to the last address.
  ['fe80::/10 link-local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['fec0::/10 site-local', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null, null],
  ['ff00::/8 multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null, null],
];

/** `a.b.c.d` as the IPv4-mapped IPv6 address in hex, as the URL parser writes it (`::ffff:7f00:1`). */
function mappedHex(v4: string): string {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Each row's addresses with the verdict expected, in every form asked: blocked inside, allowed just outside. */
function cases(rows: typeof IPV4, forms: (address: string) => string[]): Array<[string, string, boolean]> {
  return rows.flatMap(([range, first, last, before, after]) => [
    ...[first, last].flatMap((a) => forms(a).map((f): [string, string, boolean] => [range, f, true])),
    ...[before, after].filter((a): a is string => a !== null).flatMap((a) => forms(a).map((f): [string, string, boolean] => [range, f, false])),
  ]);
}

describe('webhook target guard: every blocked range at both edges', () => {
  it.each(cases(IPV4, (a) => [a]))('IPv4 %s: %s blocked=%s', (_range, address, blocked) => {
    expect(blockedAddressReason(address) !== undefined).toBe(blocked);
  });

  it.each(cases(IPV4, (a) => [`::ffff:${a}`, mappedHex(a), mappedHex(a).toUpperCase(), `0:0:0:0:0:ffff:${a}`]))(
    'IPv4-mapped IPv6 decides as its IPv4 (%s): %s blocked=%s', (_range, address, blocked) => {
      expect(blockedAddressReason(address) !== undefined).toBe(blocked);
    },
  );

  it.each(cases(IPV6, (a) => [a]))('IPv6 %s: %s blocked=%s', (_range, address, blocked) => {
    expect(blockedAddressReason(address) !== undefined).toBe(blocked);
  });

  it('names the refused address, and refuses what is not an IP address', () => {
    expect(blockedAddressReason('172.31.255.255')).toBe('172.31.255.255 is a private, loopback or link-local address');
    expect(blockedAddressReason('::ffff:172.16.0.1')).toBe('172.16.0.1 is a private, loopback or link-local address');
    expect(blockedAddressReason('not-an-ip')).toBe('not an IP address');
    expect(blockedAddressReason('172.16.0.256')).toBe('not an IP address');
  });

  it('a URL decides as its address, whatever form the URL writes it in (the parser turns mapped IPv4 into hex)', async () => {
    const guard = new DnsTargetGuard(async () => []);
    for (const [url, blocked] of [
      ['https://[::ffff:172.16.0.0]/', true], ['https://[::ffff:172.31.255.255]/', true], ['https://[::ffff:172.32.0.0]/', false],
      ['https://[0:0:0:0:0:ffff:100.127.255.255]/', true], ['https://[::ffff:100.128.0.0]/', false],
      ['https://[::ffff:198.19.255.255]/', true], ['https://[::ffff:198.20.0.0]/', false],
      ['https://0x7f.1/', true], ['https://2130706433/', true], ['https://[FC00::]/', true], ['https://[fe00::]/', false],
      ['https://[::ffff:0:7f00:1]/', true],
    ] as const) {
      expect([url, (await guard.refusal(new URL(url))) !== undefined]).toEqual([url, blocked]);
    }
  });

  it('refuses a name that resolves to any blocked address, at either edge', async () => {
    const resolving = (addresses: string[]) => new DnsTargetGuard(async () => addresses);
    const url = new URL('https://hooks.example.com/');
    expect(await resolving(['93.184.216.34', '198.19.255.255']).refusal(url)).toMatch(/198\.19\.255\.255/);
    expect(await resolving(['93.184.216.34', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']).refusal(url)).toMatch(/fdff/);
    expect(await resolving(['93.184.216.34', '198.20.0.0', 'fe00::']).refusal(url)).toBeUndefined();
  });
});
