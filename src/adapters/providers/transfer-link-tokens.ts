import { randomBytes } from 'node:crypto';
import type { TransferLinkTokens } from '../../core/transfers/transfer-request';

/** `trt_` + base64url of 24 random bytes: 192 bits, 36 characters, URL-safe as is. */
const TOKEN = /^trt_[A-Za-z0-9_-]{32}$/;

/**
 * Opaque deeplink tokens (docs/decisions.md § Personal data and secrets): random, so they carry no
 * claim to read or forge; the transfer request is found by its token server-side, and the token
 * stops working when the request expires.
 */
export const randomTransferLinkTokens: TransferLinkTokens = {
  next: () => `trt_${randomBytes(24).toString('base64url')}`,
  looksValid: (text) => TOKEN.test(text),
};
