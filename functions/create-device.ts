import { apiHandler } from '../shared/http/api-handler';
import { CreateDeviceRequest } from '../shared/schemas/accounts';
import { createDevice } from '../shared/services/tenants';

export const handler = apiHandler('create-device', { body: CreateDeviceRequest }, ({ caller, body }) => createDevice(caller, body));
