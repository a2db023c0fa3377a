import { serve } from '../shared/http/api-handler';
import { FOUNDATION_ROUTES } from '../shared/routes/foundation';
import { registerAccount } from '../shared/services/accounts/accounts';

// Limited per client address and day (REGISTRATIONS_PER_ADDRESS_PER_DAY), as the gateway saw the address.
export const handler = serve(FOUNDATION_ROUTES, 'register-account', { register: ({ sourceIp, body }) => registerAccount(body, { address: sourceIp }) });
