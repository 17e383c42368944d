import type { Response } from 'express';
import { SHAPE_A_STATUS, SHAPE_B_STATUS, SHAPE_C_STATUS, type ShapeACode, type ShapeBCode, type ShapeCCode } from '../contract/error-codes';

/** Body of error shape A: `{statusCode, message, code}` (docs/decisions.md § Errors: shapes per route family). */
export interface ShapeA {
  statusCode: number;
  message: string;
  code: ShapeACode;
}

/** Sends error shape A with the status its code implies. */
export function sendShapeA(res: Response, code: ShapeACode, message: string): void {
  const statusCode = SHAPE_A_STATUS[code];
  res.status(statusCode).json({ statusCode, message, code } satisfies ShapeA);
}

/** Sends error shape B `{error: {code}, message, statusCode, details}` (docs/decisions.md § Errors: shapes per route family) with the status its code implies. */
export function sendShapeB(res: Response, code: ShapeBCode, message: string, details: Record<string, unknown> = {}): void {
  const statusCode = SHAPE_B_STATUS[code];
  res.status(statusCode).json({ error: { code }, message, statusCode, details });
}

/** Body of error shape D: `{error: <numeric code>, message, details}` (docs/decisions.md § Errors: shapes per route family; FX). */
export function sendShapeD(res: Response, status: number, message: string, details: Record<string, unknown> = {}): void {
  res.status(status).json({ error: status, message, details });
}

/** Body of error shape C: `{message, error, details, statusCode}` (docs/decisions.md § Errors: shapes per route family); `error` is the code, `details` a hint. */
export interface ShapeC {
  message: string;
  error: ShapeCCode;
  details: string;
  statusCode: number;
}

/** Sends error shape C with the status its code implies. */
export function sendShapeC(res: Response, code: ShapeCCode, message: string, details = ''): void {
  const statusCode = SHAPE_C_STATUS[code];
  res.status(statusCode).json({ message, error: code, details, statusCode } satisfies ShapeC);
}
