import { X509Certificate } from 'node:crypto';
import { mpesaSecurityCredential } from '../../src/adapters/providers/mpesa/mpesa-security-credential';

// The Daraja SecurityCredential from the M-Pesa certificate as the portal gives it (an X.509 `.cer`,
// PEM or DER) or a PEM public key (https://developer.safaricom.co.ke/apis/TransactionStatus FAQ:
// the initiator password encrypted with the certificate's RSA key, PKCS #1 v1.5, base64).
// A self-signed 2048-bit test certificate; its private key was never kept.
const PEM = `-----BEGIN CERTIFICATE-----
MIIDNzCCAh+gAwIBAgIUSEt1gwwLLgcPi726UKnL2WwYfrAwDQYJKoZIhvcNAQEL
BQAwKjEoMCYGA1UEAwwfcGF5b3V0LWdhdGV3YXkgdGVzdCBjZXJ0aWZpY2F0ZTAg
Fw0yNjExMjcwMDI3NDZaGA8yMTI2MTEwMzAwMjc0NlowKjEoMCYGA1UEAwwfcGF5
b3V0LWdhdGV3YXkgdGVzdCBjZXJ0aWZpY2F0ZTCCASIwDQYJKoZIhvcNAQEBBQAD
ggEPADCCAQoCggEBAOm+c4rbCLGwCN4L8ni8Kxbh7mSq9/3dAn4mUv2KvAkXKLnp
V2R5kVOYSMRDdL24il5DEN2Fna91my8wP86UGaMm+9SglEjEc3Vd145/AxYbfuzR
fqdOPmHygw5VRZ//JSfPvJP5a+2dZHit5nTBQCRFmx5OkiJ6PTvmgU5quXkwGLza
RZ5ep31ABNH3YS1L7QACey1Ak9KlLDZEQdMDv4s6HOLYZ1E15oXbr1gMr/Ot4D+j
KryHXnBm3+2pZkOAMVtzlh5sQ8mDn73Tp4BhzaNrKs+guQBYefRN52HkKaq5rYWN
eodySeqVA9pTkMG3BgvvtVuH6A855iFba4LgrHcCAwEAAaNTMFEwHQYDVR0OBBYE
FNLXvGcI0Jz6EVEF5mVk9U4s6pBsMB8GA1UdIwQYMBaAFNLXvGcI0Jz6EVEF5mVk
9U4s6pBsMA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBAHeuiL/p
DrXJ3aC4pgomSWi6XJcLSAR/pSYrowsAp3LsThCWNVcXoq654+nJQnujPPatGjIu
ux60DjF3WF9CEzPes43z/rGtuKry/8bUJr89nAsC+vqFUAFcmP4Wgw2ltU0GSn0h
F56l8+uQfWDQmHIc9dQUXxtCYF82r2bvoPBgXokyyEdiNcx1zkAowLRKmKi4d+eg
/JepuYXHvluO8f9pTeAB3iaO16hXLtPAG35MzpJp8WZdGDuX5f4YRBHlGojnd+OI
ZSlhde4SqrnN5sxycG9yGdHvo+01FDAIhi5Q5kYkKjfIRDkQ8Tsc2bGWd8F2vPXB
RtmohZTv00G5mOY=
-----END CERTIFICATE-----
`;
const DER = Buffer.from(PEM.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');

describe('M-Pesa SecurityCredential', () => {
  it('a PEM or DER certificate, or its PEM public key, gives one RSA block of the key\'s size in base64, random each time', () => {
    const publicKeyPem = new X509Certificate(PEM).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    for (const certificate of [Buffer.from(PEM), DER, Buffer.from(publicKeyPem)]) {
      const credential = mpesaSecurityCredential(certificate, 'Safaricom999!*!');
      expect(credential).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(credential, 'base64')).toHaveLength(256);
      expect(mpesaSecurityCredential(certificate, 'Safaricom999!*!')).not.toBe(credential);
    }
  });

  it('a file that is neither a certificate nor a public key throws', () => {
    expect(() => mpesaSecurityCredential(Buffer.from('not a certificate'), 'pw')).toThrow();
    expect(() => mpesaSecurityCredential(Buffer.from('-----BEGIN NOTHING-----\nAAAA\n-----END NOTHING-----\n'), 'pw')).toThrow();
  });
});
