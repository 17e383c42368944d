import { API_KEY_PATTERN } from '../core/auth/api-key';

/** Smallest estimated entropy, in bits, of a production API key's random part, a callback path secret or WEBHOOK_SECRET_KEY. */
export const MIN_SECRET_BITS = 128;

/** Repeats of at least this many characters seen earlier in the key count as one character. */
const MIN_REPEAT = 4;
const CHARACTER_CLASSES: ReadonlyArray<{ pattern: RegExp; size: number }> = [
  { pattern: /[0-9]/, size: 10 }, { pattern: /[a-z]/, size: 26 }, { pattern: /[A-Z]/, size: 26 },
];

/**
 * Plug-in Shannon entropy of `symbols` times their count, in bits, with the Miller–Madow correction
 * ((distinct − 1) / 2n nats per symbol) for the bias of short samples: a random 32-character base62
 * string scores about 160, 32 zeros score 0. Pure.
 */
export function shannonBits(symbols: ArrayLike<string | number>): number {
  const n = symbols.length;
  if (n === 0) return 0;
  const counts = new Map<string | number, number>();
  for (let i = 0; i < n; i++) counts.set(symbols[i]!, (counts.get(symbols[i]!) ?? 0) + 1);
  let perSymbol = 0;
  for (const count of counts.values()) perSymbol -= (count / n) * Math.log2(count / n);
  return (perSymbol + (counts.size - 1) / (2 * n * Math.LN2)) * n;
}

/**
 * Bits if every "free" character were drawn uniformly from the character classes the text uses
 * (digits 10, lower case 26, upper case 26). A character is not free when it continues a run that
 * repeats or steps by one (`aaaa`, `abcd`, `9876`: the first two characters of each are free), or
 * continues a run of 4 or more characters that already appeared earlier (a repeated block counts as
 * one character). Pure.
 */
export function patternBits(text: string): number {
  const alphabet = CHARACTER_CLASSES.reduce((sum, c) => sum + (c.pattern.test(text) ? c.size : 0), 0);
  if (alphabet === 0) return 0;
  let free = 0;
  let previousStep: number | undefined;
  for (let i = 0; i < text.length;) {
    const repeat = longestEarlierMatch(text, i);
    if (repeat >= MIN_REPEAT) {
      free += 1;
      i += repeat;
      previousStep = undefined;
      continue;
    }
    const step = i === 0 ? undefined : text.charCodeAt(i) - text.charCodeAt(i - 1);
    // Only a run's continuation is predictable: a single step of -1, 0 or +1 happens by chance in
    // about 3 of 16 characters of a random hex key, so counting it would refuse good hex keys.
    const continuesRun = step !== undefined && Math.abs(step) <= 1 && step === previousStep;
    if (!continuesRun) free += 1;
    previousStep = step;
    i += 1;
  }
  return free * Math.log2(alphabet);
}

/** Length of the longest substring starting at `at` that also starts before `at` (overlaps allowed). */
function longestEarlierMatch(text: string, at: number): number {
  let best = 0;
  for (let from = 0; from < at; from++) {
    let length = 0;
    while (at + length < text.length && text[from + length] === text[at + length]) length++;
    best = Math.max(best, length);
  }
  return best;
}

/**
 * Estimated entropy of an API key's random part (the letters and digits after `sk_<env>_`), in bits:
 * the smaller of `shannonBits` and `patternBits` (docs/decisions.md § Authentication, tenants and keys).
 * Keys from `generateApiKey` (40 base62 characters, about 238 bits) score about 210; none of 200,000
 * random 32-character base62 keys scored under 129. A malformed key scores 0. Pure.
 */
export function apiKeyEntropyBits(apiKey: string): number {
  const random = API_KEY_PATTERN.exec(apiKey)?.[2];
  return random ? secretTextEntropyBits(random) : 0;
}

/**
 * Estimated entropy of a secret written as text (a callback path secret: letters, digits, `-` and
 * `_`), in bits: the smaller of `shannonBits` and `patternBits` over the whole text, the rule API
 * keys' random part is held to (docs/decisions.md § Payout providers: callbacks). Pure.
 */
export function secretTextEntropyBits(text: string): number {
  return text === '' ? 0 : Math.min(shannonBits(text), patternBits(text));
}

/** The secrets production checks: environment variable name and value (either may be unset). */
export interface ProductionSecrets {
  readonly SANDBOX_API_KEY?: string;
  readonly ADMIN_API_KEY?: string;
  /** Base64 of 32 bytes. */
  readonly WEBHOOK_SECRET_KEY?: string;
  /** The path secret of M-Pesa's callback URLs (Daraja signs nothing: the path secret is the credential). */
  readonly MPESA_CALLBACK_PATH_SECRET?: string;
  /** The path secret of MTN MoMo's `X-Callback-Url` (MTN signs nothing either). */
  readonly MTN_MOMO_CALLBACK_SECRET?: string;
  /** The path secret of Smile ID's callback URL (its signature covers no part of the body). */
  readonly SMILE_ID_CALLBACK_SECRET?: string;
  /** Flutterwave's webhook secret hash (sent back verbatim in `verif-hash`: it is the credential). */
  readonly FLUTTERWAVE_WEBHOOK_SECRET_HASH?: string;
  /** The path secret of pawaPay's callback URL (checked with the source address; the callback then only triggers a status query). */
  readonly PAWAPAY_CALLBACK_SECRET?: string;
}

/**
 * Problems with the configured secrets under the production rule (docs/decisions.md § Personal data and
 * secrets; § Payout providers: callbacks): each API key's random part must score at least
 * MIN_SECRET_BITS by `apiKeyEntropyBits`, each callback path secret at least MIN_SECRET_BITS by
 * `secretTextEntropyBits`, and the webhook key's 32 bytes at least MIN_SECRET_BITS by `shannonBits`
 * (all-zero or repeated bytes fail). One sentence per problem naming the variable and the estimate,
 * never the value. Pure.
 */
export function weakSecretProblems(secrets: ProductionSecrets): string[] {
  const problems: string[] = [];
  for (const name of ['SANDBOX_API_KEY', 'ADMIN_API_KEY'] as const) {
    const value = secrets[name];
    if (value === undefined) continue;
    const bits = apiKeyEntropyBits(value);
    if (bits < MIN_SECRET_BITS) {
      problems.push(`${name} is too weak: its random part is estimated at ${Math.floor(bits)} bits, at least ${MIN_SECRET_BITS} are required ` +
        '(generate one with `npm run env:init`, or use 40 random letters and digits)');
    }
  }
  for (const name of ['MPESA_CALLBACK_PATH_SECRET', 'MTN_MOMO_CALLBACK_SECRET', 'SMILE_ID_CALLBACK_SECRET', 'FLUTTERWAVE_WEBHOOK_SECRET_HASH', 'PAWAPAY_CALLBACK_SECRET'] as const) {
    const value = secrets[name];
    if (value === undefined) continue;
    const bits = secretTextEntropyBits(value);
    if (bits < MIN_SECRET_BITS) {
      problems.push(`${name} is too weak: it is estimated at ${Math.floor(bits)} bits, at least ${MIN_SECRET_BITS} are required ` +
        '(generate one with `openssl rand -hex 32`)');
    }
  }
  if (secrets.WEBHOOK_SECRET_KEY !== undefined) {
    const bits = shannonBits(Buffer.from(secrets.WEBHOOK_SECRET_KEY, 'base64'));
    if (bits < MIN_SECRET_BITS) {
      problems.push(`WEBHOOK_SECRET_KEY is too weak: its bytes are estimated at ${Math.floor(bits)} bits, at least ${MIN_SECRET_BITS} are required ` +
        '(generate one with `npm run env:init` or `openssl rand -base64 32`)');
    }
  }
  return problems;
}
