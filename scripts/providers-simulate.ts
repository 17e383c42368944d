/**
 * Starts the provider simulators for local work (docs/providers.md § Simulators): M-Pesa Daraja, MTN MoMo
 * Disbursements, Paystack Transfers, Flutterwave Transfers, pawaPay payouts and Smile ID Enhanced KYC, and the rate sources Coinbase, Luno, VALR and Open
 * Exchange Rates (docs/providers.md § Rates), each a protocol double over real HTTP. Prints the
 * variables that point the service at them (the simulators' own development credentials, no real
 * secret) and writes the M-Pesa simulator's public key where MPESA_CERTIFICATE_PATH names it.
 * Ports: SIM_MPESA_PORT (4010), SIM_MTN_MOMO_PORT (4020), SIM_PAYSTACK_PORT (4030), SIM_COINBASE_PORT (4040),
 * SIM_LUNO_PORT (4050), SIM_VALR_PORT (4060), SIM_SMILE_ID_PORT (4070), SIM_OXR_PORT (4080), SIM_FLUTTERWAVE_PORT (4090), SIM_PAWAPAY_PORT (4100); a rate simulator's mode is set with POST <url>/__simulator/mode. The service's
 * origin for callbacks: SERVICE_URL (http://127.0.0.1:3000). Stops on SIGINT or SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMpesaSimulator } from '../simulators/mpesa/mpesa-simulator';
import { startMtnMomoSimulator } from '../simulators/mtn-momo/mtn-momo-simulator';
import { startPaystackSimulator } from '../simulators/paystack/paystack-simulator';
import { startFlutterwaveSimulator } from '../simulators/flutterwave/flutterwave-simulator';
import { startCoinbaseSimulator } from '../simulators/coinbase/coinbase-simulator';
import { startLunoSimulator } from '../simulators/luno/luno-simulator';
import { startValrSimulator } from '../simulators/valr/valr-simulator';
import { startSmileIdSimulator } from '../simulators/smile-id/smile-id-simulator';
import { startPawapaySimulator } from '../simulators/pawapay/pawapay-simulator';
import { OXR_SIM_APP_ID, startOxrSimulator } from '../simulators/oxr/oxr-simulator';

const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function main(): Promise<void> {
  const service = (process.env.SERVICE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const mpesa = await startMpesaSimulator({ port: port('SIM_MPESA_PORT', 4010), callbackDelayMs: 500, delayedCallbackMs: 5000 });
  const mtn = await startMtnMomoSimulator({ port: port('SIM_MTN_MOMO_PORT', 4020), processingDelayMs: 500, callbackDelayMs: 1000 });
  const paystack = await startPaystackSimulator({ port: port('SIM_PAYSTACK_PORT', 4030), resultDelayMs: 1000, webhookUrl: `${service}/callbacks/paystack` });
  const flutterwaveHash = randomBytes(24).toString('base64url');
  const flutterwave = await startFlutterwaveSimulator({
    port: port('SIM_FLUTTERWAVE_PORT', 4090), resultDelayMs: 1000, secretHash: flutterwaveHash, webhookUrl: `${service}/callbacks/flutterwave`,
  });
  const coinbase = await startCoinbaseSimulator({ port: port('SIM_COINBASE_PORT', 4040) });
  const luno = await startLunoSimulator({ port: port('SIM_LUNO_PORT', 4050) });
  const valr = await startValrSimulator({ port: port('SIM_VALR_PORT', 4060) });
  const smileId = await startSmileIdSimulator({ port: port('SIM_SMILE_ID_PORT', 4070), resultDelayMs: 1000 });
  const oxr = await startOxrSimulator({ port: port('SIM_OXR_PORT', 4080) });
  // pawaPay's callback URL is an account setting (its Dashboard), so the simulator is given it here.
  const pawapaySecret = randomBytes(24).toString('base64url');
  const pawapay = await startPawapaySimulator({
    port: port('SIM_PAWAPAY_PORT', 4100), processingDelayMs: 500, callbackDelayMs: 1000, callbackUrl: `${service}/callbacks/pawapay/${pawapaySecret}`,
  });

  const dir = path.resolve(__dirname, '..', '.data');
  mkdirSync(dir, { recursive: true });
  const certificate = path.join(dir, 'mpesa-simulator-cert.pem');
  writeFileSync(certificate, mpesa.publicKeyPem);
  // Per run, like a deployment's own: only this run's service knows them.
  const mpesaSecret = randomBytes(24).toString('base64url');
  const mtnSecret = randomBytes(24).toString('base64url');
  const smileIdSecret = randomBytes(24).toString('base64url');

  const variables = [
    `MPESA_BASE_URL=${mpesa.url}`,
    `MPESA_CONSUMER_KEY=${mpesa.options.consumerKey}`,
    `MPESA_CONSUMER_SECRET=${mpesa.options.consumerSecret}`,
    `MPESA_SHORTCODE=${mpesa.options.shortcodes[0]}`,
    `MPESA_INITIATOR_NAME=${mpesa.options.initiatorName}`,
    `MPESA_INITIATOR_PASSWORD=${mpesa.options.initiatorPassword}`,
    `MPESA_CERTIFICATE_PATH=${certificate}`,
    `MPESA_CALLBACK_BASE_URL=${service}/callbacks/mpesa`,
    `MPESA_CALLBACK_PATH_SECRET=${mpesaSecret}`,
    'MPESA_CALLBACK_ALLOWED_IPS=127.0.0.1',
    `MTN_MOMO_BASE_URL=${mtn.url}`,
    `MTN_MOMO_SUBSCRIPTION_KEY=${mtn.credentials.subscriptionKey}`,
    `MTN_MOMO_API_USER=${mtn.credentials.apiUser}`,
    `MTN_MOMO_API_KEY=${mtn.credentials.apiKey}`,
    'MTN_MOMO_TARGET_ENVIRONMENT=sandbox',
    'MTN_MOMO_SANDBOX_CURRENCY=EUR',
    `MTN_MOMO_CALLBACK_BASE_URL=${service}/callbacks/mtn-momo`,
    `MTN_MOMO_CALLBACK_SECRET=${mtnSecret}`,
    'MTN_MOMO_CALLBACK_ALLOWED_IPS=127.0.0.1',
    `PAYSTACK_SECRET_KEY=${paystack.secretKey}`,
    `PAYSTACK_BASE_URL=${paystack.url}`,
    // The simulator's webhooks come from this machine, not from Paystack's documented addresses.
    'PAYSTACK_WEBHOOK_ALLOWED_IPS=127.0.0.1,::1',
    `FLUTTERWAVE_SECRET_KEY=${flutterwave.secretKey}`,
    `FLUTTERWAVE_BASE_URL=${flutterwave.url}`,
    `FLUTTERWAVE_WEBHOOK_SECRET_HASH=${flutterwave.secretHash}`,
    'FLUTTERWAVE_SENDER_NAME="Payout Gateway (development)"',
    'FLUTTERWAVE_SENDER_COUNTRY=KE',
    'FLUTTERWAVE_SENDER_MOBILE=254700000001',
    `PAWAPAY_BASE_URL=${pawapay.url}`,
    `PAWAPAY_API_TOKEN=${pawapay.apiToken}`,
    'PAWAPAY_ENVIRONMENT=sandbox',
    `PAWAPAY_CALLBACK_SECRET=${pawapaySecret}`,
    'PAWAPAY_CALLBACK_ALLOWED_IPS=127.0.0.1,::1',
    'RATES_SOURCES=coinbase,luno,valr,oxr',
    `RATES_COINBASE_BASE_URL=${coinbase.url}`,
    `RATES_LUNO_BASE_URL=${luno.url}`,
    `RATES_VALR_BASE_URL=${valr.url}`,
    `SMILE_ID_PARTNER_ID=${smileId.partnerId}`,
    `SMILE_ID_API_KEY=${smileId.apiKey}`,
    `SMILE_ID_BASE_URL=${smileId.url}`,
    `SMILE_ID_CALLBACK_BASE_URL=${service}/callbacks/smile-id`,
    `SMILE_ID_CALLBACK_SECRET=${smileIdSecret}`,
    `RATES_OXR_BASE_URL=${oxr.baseUrl}`,
    // The simulator's development App ID (no real account); a simulator has no quota, so every refresh reads it.
    `RATES_OXR_APP_ID=${OXR_SIM_APP_ID}`,
    'RATES_OXR_INTERVAL_SECONDS=0',
  ];
  const envFile = path.join(dir, 'providers-simulate.env');
  writeFileSync(envFile, `${variables.join('\n')}\n`, { mode: 0o600 });
  process.stdout.write([
    `M-Pesa Daraja simulator    ${mpesa.url}   (faults: ${mpesa.url}/__simulator/faults, ledger: /__simulator/transfers)`,
    `MTN MoMo simulator        ${mtn.url}   (ledger: ${mtn.url}/__simulator/transfers)`,
    `Paystack simulator        ${paystack.url}   (webhooks to ${service}/callbacks/paystack)`,
    `Flutterwave simulator     ${flutterwave.url}   (webhooks to ${service}/callbacks/flutterwave)`,
    `pawaPay simulator         ${pawapay.url}   (faults by the recipient's last two digits; ledger: ${pawapay.url}/__simulator/payouts)`,
    `Coinbase rates simulator  ${coinbase.url}   (mode: POST ${coinbase.url}/__simulator/mode {"mode":"stale|skewed|failing|jumping|normal"})`,
    `Luno ticker simulator     ${luno.url}`,
    `VALR summary simulator    ${valr.url}`,
    `Smile ID KYC simulator    ${smileId.url}   (results by the ID number's last digit; callbacks to ${service}/callbacks/smile-id/…)`,
    `Open Exchange Rates sim.  ${oxr.url}   (a documented error next: POST ${oxr.url}/__simulator/error {"message":"not_allowed"})`,
    '',
    `Variables for the service (also in ${envFile}):`,
    ...variables.map((line) => `  ${line}`),
    '',
    'Start the service with them, e.g.: set -a; . ./.data/providers-simulate.env; set +a; npm start',
    '',
  ].join('\n'));

  const stop = async () => {
    await Promise.allSettled([mpesa.close(), mtn.close(), paystack.close(), flutterwave.close(), coinbase.close(), luno.close(), valr.close(), smileId.close(), oxr.close(), pawapay.close()]);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`providers:simulate failed: ${String(error)}\n`);
  process.exit(1);
});
