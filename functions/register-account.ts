import { publicHandler } from '../shared/http/api-handler';
import { RegisterRequest } from '../shared/schemas/accounts';
import { registerAccount } from '../shared/services/accounts';

// Limited per client address and day (REGISTRATIONS_PER_ADDRESS_PER_DAY), as the gateway saw the address.
export const handler = publicHandler('register', { body: RegisterRequest }, ({ sourceIp, body }) => registerAccount(body, { address: sourceIp }));
