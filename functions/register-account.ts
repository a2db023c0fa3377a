import { publicHandler } from '../shared/http/api-handler';
import { RegisterRequest } from '../shared/schemas/accounts';
import { registerAccount } from '../shared/services/accounts';

export const handler = publicHandler('register', { body: RegisterRequest }, ({ body }) => registerAccount(body));
