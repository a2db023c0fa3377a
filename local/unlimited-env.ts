/** Environment that lifts every rate, per-address and freemium limit, for load, soak and fuzz runs of the local runtime that must reach the handlers. */
const HIGH = '1000000';

export const UNLIMITED_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_FREE: HIGH,
  RATE_LIMIT_PROFESSIONAL: HIGH,
  RATE_LIMIT_ENTERPRISE: HIGH,
  RATE_LIMIT_ANONYMOUS: HIGH,
  AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: HIGH,
  REGISTRATIONS_PER_ADDRESS_PER_DAY: HIGH,
  FREEMIUM_FORECASTS_PER_EMAIL_PER_DAY: HIGH,
  FREEMIUM_POLICY_QUERIES_PER_ADDRESS_PER_DAY: HIGH,
};
