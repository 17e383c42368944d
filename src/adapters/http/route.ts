import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Principal } from '../../core/auth/api-key';
import type { OperatorRole } from '../../core/operators/operator';

/**
 * Who may call a route: an issuer key; an admin key or an operator session with the route's role;
 * an operator session only (`operator`: the session's own routes); any valid key; or no key at all
 * (health probes, sign-in).
 */
export type RouteAuth = 'issuer' | 'admin' | 'operator' | 'any' | 'none';

/**
 * A documented response of a route; `schema` is the JSON body's zod schema, `headers` the
 * response headers this answer adds to those every answer has (Request-Id, the rate-limit pair,
 * Retry-After on 429 and Link on list pages are declared by the document builder).
 */
export interface RouteResponse {
  readonly description: string;
  readonly schema?: z.ZodType;
  readonly headers?: Readonly<Record<string, z.ZodType>>;
  /**
   * The whole body this answer shows as its example, when the schema's own example (shared by every
   * answer of that schema) would show something this answer never returns.
   */
  readonly example?: unknown;
}

/** What a handler receives: the request's parts already parsed by the route's zod schemas. */
export interface ParsedRequest<B, Q, P> {
  readonly body: B;
  readonly query: Q;
  readonly params: P;
  readonly principal: Principal | undefined;
  /** The caller's tenant: always set on `issuer` routes (others get an empty string). */
  readonly tenantId: string;
  readonly raw: Request;
}

/**
 * One HTTP operation, described once: the zod schemas here both validate requests and generate the
 * OpenAPI document so the document cannot drift from the code.
 * `path` uses OpenAPI templating (`/v1/payments/{paymentId}`).
 */
export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  /** What an integrator should know to call it: effects, rules, what to do next (OpenAPI `description`). */
  readonly description: string;
  readonly tags: readonly string[];
  readonly auth: RouteAuth;
  /**
   * The least operator role a session needs on an `admin` or `operator` route (docs/decisions.md §
   * Operators: roles); admin keys act as `admin`. Default: `viewer` on GET and on `operator` routes, `admin` on other writes.
   */
  readonly role?: OperatorRole;
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  readonly params?: z.ZodType<P>;
  /** Request headers, for documentation; handlers read them from `raw`. */
  readonly headers?: z.ZodObject;
  readonly responses: Readonly<Record<string, RouteResponse>>;
  readonly handler: (req: ParsedRequest<B, Q, P>, res: Response) => Promise<void> | void;
}

/** Identity helper that keeps the generic parameters of a route inferred from its schemas. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(spec: RouteSpec<B, Q, P>): RouteSpec<B, Q, P> {
  return spec;
}

/** Express path syntax for an OpenAPI path: `{id}` becomes `:id`. */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}
