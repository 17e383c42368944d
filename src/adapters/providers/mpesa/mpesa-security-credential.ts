import { constants, createPublicKey, publicEncrypt, X509Certificate, type KeyObject } from 'node:crypto';

/**
 * The Daraja `SecurityCredential`: the initiator password's bytes encrypted with the public key of
 * the M-Pesa certificate (RSA, PKCS #1 v1.5 padding, not OAEP), then base64 (Daraja Transaction
 * Status FAQ, https://developer.safaricom.co.ke/apis/TransactionStatus; Safaricom's Node library
 * `safaricom/mpesa-node-library` src/helpers/security.ts does the same). The padding is random, so
 * each call gives a different string; Daraja accepts one credential across requests, so callers
 * compute it once. `certificate` is an X.509 certificate (PEM or DER, as the portal's `.cer`) or a
 * PEM public key. Throws for a file that holds neither (a configuration fault, found at start).
 */
export function mpesaSecurityCredential(certificate: Buffer, initiatorPassword: string): string {
  return publicEncrypt(
    { key: publicKeyOf(certificate), padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(initiatorPassword, 'utf8'),
  ).toString('base64');
}

function publicKeyOf(certificate: Buffer): KeyObject {
  if (certificate.toString('latin1').includes('-----BEGIN')) return createPublicKey(certificate);
  return new X509Certificate(certificate).publicKey;
}
