import { z } from 'zod';
import { ANALYTICS_GROUPS, type AnalyticsErrorCode } from '../../core/analytics/analytics';
import type { ShapeACode } from './error-codes';

/** Query of GET /v1/analytics/summary; GraphQL's analyticsSummary validates with it too. */
export const SummaryQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }).meta({ description: 'Start, inclusive (ISO 8601)' }),
  to: z.iso.datetime({ offset: true }).meta({ description: 'End, exclusive (ISO 8601); at most 366 days after from' }),
  groupBy: z.enum(ANALYTICS_GROUPS).default('day').meta({ description: 'How rows are grouped: by day (UTC), currency, payment method or status' }),
});

/** Every analytics failure mapped to its shape A code, for REST and GraphQL alike; exhaustive by type. */
export const ANALYTICS_ERRORS: Record<AnalyticsErrorCode, ShapeACode> = { validation_error: 'validation_error' };
