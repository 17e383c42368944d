import type { Clock } from '../../../core/shared/clock';

/** An access token as MTN's token endpoint issues it: `expiresInS` in seconds (`expires_in`). */
export interface IssuedToken {
  readonly token: string;
  readonly expiresInS: number;
}

/** MTN's advice: "refreshed 10 minutes prior to expiry" of its 60-minute tokens (MoMo community, Best practices). */
const REFRESH_BEFORE_EXPIRY_MS = 600_000;

/**
 * One cached access token, shared by every call ("Do not create a token for every transaction",
 * MoMo Best practices). Refreshed 10 minutes before it expires, or halfway through its life when it
 * lives under 20 minutes; concurrent callers share one token request; `invalidate` drops a token
 * MTN answered 401 to, so the next `get` asks for a new one. `issue` throws when no token is
 * available (its message names no secret).
 */
export class MtnMomoTokenCache {
  private current: { token: string; refreshAtMs: number } | undefined;
  private inflight: Promise<string> | undefined;

  constructor(private readonly issue: () => Promise<IssuedToken>, private readonly clock: Clock) {}

  /** A token valid for a while yet: the cached one, or a new one. */
  async get(): Promise<string> {
    if (this.current && this.clock.now().getTime() < this.current.refreshAtMs) return this.current.token;
    this.inflight ??= this.refresh().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** Forgets `token` if it is still the cached one (MTN refused it). */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async refresh(): Promise<string> {
    // Counted from the request, not the answer: the token's life began no later than that.
    const askedAtMs = this.clock.now().getTime();
    const issued = await this.issue();
    const lifeMs = issued.expiresInS * 1000;
    const earlyMs = lifeMs > 2 * REFRESH_BEFORE_EXPIRY_MS ? REFRESH_BEFORE_EXPIRY_MS : lifeMs / 2;
    this.current = { token: issued.token, refreshAtMs: askedAtMs + lifeMs - earlyMs };
    return issued.token;
  }
}
