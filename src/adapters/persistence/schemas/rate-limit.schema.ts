import { EntitySchema } from '@mikro-orm/core';

/** A row of `rate_limits`, owned by rate-limiter-flexible's PostgreSQL store; mapped so migrations know the table. */
export interface RateLimitRow {
  key: string;
  points: number;
  /** Unix milliseconds at which the window ends. */
  expire: number | null;
}

/** Table `rate_limits` (issue 6): one counter per key and limit; the library writes it, never the ORM. */
export const RateLimitSchema = new EntitySchema<RateLimitRow>({
  name: 'RateLimitCounter',
  tableName: 'rate_limits',
  indexes: [{ name: 'rate_limits_expire_idx', properties: ['expire'] }],
  properties: {
    key: { type: 'string', length: 255, primary: true },
    points: { type: 'integer', default: 0 },
    expire: { type: 'bigint', nullable: true },
  },
});
