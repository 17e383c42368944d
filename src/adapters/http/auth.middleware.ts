import type { Request, Response } from 'express';
import type { Principal } from '../../core/auth/api-key';
import { sendShapeA } from './http-errors';
import type { RouteAuth } from './route';

/** Resolves a bearer key to a principal (the core's `authenticate`). */
export type Authenticator = (apiKey: string) => Promise<{ ok: true; value: Principal } | { ok: false; message: string }>;

/**
 * Checks the caller against a route's requirement (interface part 5, DESIGN.md 9). Sends 401 in
 * shape A for a missing or bad key, 403 for a key of the wrong scope, and returns undefined then;
 * otherwise returns the principal (undefined as well for unauthenticated routes, with `passed`).
 */
export async function authorize(
  authenticate: Authenticator,
  need: RouteAuth,
  req: Request,
  res: Response,
): Promise<{ passed: boolean; principal?: Principal }> {
  if (need === 'none') return { passed: true };
  const header = req.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    sendShapeA(res, 'unauthorized', 'Authorization: Bearer <API_KEY> header is required');
    return { passed: false };
  }
  const result = await authenticate(match[1]);
  if (!result.ok) {
    sendShapeA(res, 'unauthorized', result.message);
    return { passed: false };
  }
  const principal = result.value;
  if (need === 'admin' && principal.scope !== 'admin') {
    sendShapeA(res, 'forbidden', 'This operation needs an admin-scoped key');
    return { passed: false };
  }
  if (need === 'issuer' && principal.tenantId === null) {
    sendShapeA(res, 'forbidden', 'This operation needs an issuer key that belongs to a tenant');
    return { passed: false };
  }
  return { passed: true, principal };
}
