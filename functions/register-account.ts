import { serve } from '../shared/http/api-handler';
import { registerAccount } from '../shared/services/accounts';

// Limited per client address and day (REGISTRATIONS_PER_ADDRESS_PER_DAY), as the gateway saw the address.
export const handler = serve('register-account', { register: ({ sourceIp, body }) => registerAccount(body, { address: sourceIp }) });
