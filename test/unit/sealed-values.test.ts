import { createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { idNumberHashInput, PersonalDataBox } from '../../src/adapters/providers/personal-data-box';
import { AesGcmSecretBox } from '../../src/adapters/providers/secret-box';
import { randomTransferLinkTokens } from '../../src/adapters/providers/transfer-link-tokens';

// Sealed values and tokens (docs/decisions.md § Personal data and secrets): webhook secrets sealed
// with AES-256-GCM (`v1.`), personal data under keys derived from WEBHOOK_SECRET_KEY (`pd1.`,
// `ph1.`), and random deeplink tokens (`trt_` + 192 bits).

/** Opens `<tag>.` + base64(iv[12] | auth tag[16] | ciphertext) by hand, as the stored format is documented. */
function openByHand(sealed: string, key: Buffer, tag: string): string {
  expect(sealed.startsWith(`${tag}.`)).toBe(true);
  const raw = Buffer.from(sealed.slice(tag.length + 1), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

// Objects under test are made inside each test, where a mutation run has its mutant active.
describe('AES-256-GCM secret box', () => {
  const key = randomBytes(32);
  let box: AesGcmSecretBox;
  beforeEach(() => {
    box = new AesGcmSecretBox(key);
  });

  it('takes only a 32-byte key', () => {
    expect(() => new AesGcmSecretBox(randomBytes(31))).toThrow('secret box key must be 32 bytes');
    expect(() => new AesGcmSecretBox(randomBytes(33))).toThrow('secret box key must be 32 bytes');
  });

  it('a new webhook secret is whsec_ and the base64 of 32 random bytes', () => {
    const secret = box.newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(box.newSecret()).not.toBe(secret);
  });

  it('seals as v1. + base64(iv | tag | ciphertext), a fresh iv each time, and opens what it sealed', () => {
    const clear = 'whsec_sécret ✓';
    const sealed = box.seal(clear);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(sealed.slice(3), 'base64')).toHaveLength(12 + 16 + Buffer.byteLength(clear));
    expect(openByHand(sealed, key, 'v1')).toBe(clear);
    expect(box.open(sealed)).toBe(clear);
    const again = box.seal(clear);
    expect(again).not.toBe(sealed);
    expect(Buffer.from(again.slice(3), 'base64').subarray(0, 12)).not.toEqual(Buffer.from(sealed.slice(3), 'base64').subarray(0, 12));
    expect(box.open(box.seal(''))).toBe('');
  });

  it('owns only values with its own tag and the dot after it', () => {
    const tagged = new AesGcmSecretBox(key, 'k2');
    const sealed = tagged.seal('x');
    expect(sealed.startsWith('k2.')).toBe(true);
    expect(tagged.owns(sealed)).toBe(true);
    expect(box.owns(sealed)).toBe(false);
    expect(tagged.owns(`k2${sealed.slice(3)}`)).toBe(false);
    expect(() => box.open(sealed)).toThrow('sealed value does not carry the v1. tag');
    expect(tagged.open(sealed)).toBe('x');
  });

  it('refuses a forged value and a value sealed under another key', () => {
    const sealed = box.seal('the secret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 0x01;
    expect(() => box.open(`v1.${raw.toString('base64')}`)).toThrow();
    const tagFlipped = Buffer.from(sealed.slice(3), 'base64');
    tagFlipped[12]! ^= 0x01;
    expect(() => box.open(`v1.${tagFlipped.toString('base64')}`)).toThrow();
    expect(() => new AesGcmSecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});

describe('personal data box', () => {
  const master = randomBytes(32);
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  let box: PersonalDataBox;
  beforeEach(() => {
    box = new PersonalDataBox(master);
  });

  it('takes only a 32-byte secret key', () => {
    expect(() => new PersonalDataBox(randomBytes(16))).toThrow('the secret key must be 32 bytes');
    expect(() => new PersonalDataBox(randomBytes(33))).toThrow('the secret key must be 32 bytes');
  });

  it('seals as pd1. under the HKDF-derived encryption key, never under the secret key itself', () => {
    const sealed = box.seal('+254712345678');
    expect(sealed.startsWith('pd1.')).toBe(true);
    expect(openByHand(sealed, derive('payout-gateway/personal-data/aes-256-gcm/v1'), 'pd1')).toBe('+254712345678');
    expect(() => openByHand(sealed, master, 'pd1')).toThrow();
    expect(box.open(sealed)).toBe('+254712345678');
    expect(box.seal('+254712345678')).not.toBe(sealed);
    // Another secret key cannot open it; a webhook secret's v1. value is not personal data.
    expect(() => new PersonalDataBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open(new AesGcmSecretBox(master).seal('x'))).toThrow(/pd1\./);
  });

  it('a keyed hash is ph1. + base64url(HMAC-SHA256 of "purpose\\0text") under its own derived key', () => {
    const hash = box.keyedHash('id-number', 'NATIONAL_ID:AB1234');
    const expected = createHmac('sha256', derive('payout-gateway/personal-data/hmac-sha256/v1'))
      .update('id-number\0NATIONAL_ID:AB1234').digest('base64url');
    expect(hash).toBe(`ph1.${expected}`);
    expect(hash).toHaveLength(47);
    expect(box.keyedHash('id-number', 'NATIONAL_ID:AB1234')).toBe(hash);
    expect(box.keyedHash('provider-callback', 'NATIONAL_ID:AB1234')).not.toBe(hash);
    expect(box.keyedHash('id-number', 'NATIONAL_ID:AB1235')).not.toBe(hash);
    expect(new PersonalDataBox(randomBytes(32)).keyedHash('id-number', 'NATIONAL_ID:AB1234')).not.toBe(hash);
  });

  it('an id number is compared by type and number, upper case, without dashes', () => {
    expect(idNumberHashInput('PASSPORT', 'ab-12-34')).toBe('PASSPORT:AB1234');
    expect(idNumberHashInput('PASSPORT', 'AB1234')).toBe('PASSPORT:AB1234');
    expect(idNumberHashInput('NATIONAL_ID', 'AB1234')).not.toBe(idNumberHashInput('PASSPORT', 'AB1234'));
  });
});

describe('transfer link tokens', () => {
  it('are trt_ + base64url of 24 random bytes, 36 characters, each new', () => {
    const token = randomTransferLinkTokens.next();
    expect(token).toMatch(/^trt_[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(24);
    expect(new Set(Array.from({ length: 50 }, () => randomTransferLinkTokens.next())).size).toBe(50);
    expect(randomTransferLinkTokens.looksValid(token)).toBe(true);
  });

  it('looks valid only in exactly that shape', () => {
    const body = 'A'.repeat(30) + '_-';
    expect(randomTransferLinkTokens.looksValid(`trt_${body}`)).toBe(true);
    for (const text of [`trt_${body.slice(1)}`, `trt_${body}x`, `trx_${body}`, ` trt_${body}`, `trt_${body.slice(1)}+`, `trt_${body.slice(1)}=`, '']) {
      expect(randomTransferLinkTokens.looksValid(text)).toBe(false);
    }
  });
});
