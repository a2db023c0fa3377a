/** The route rows of foundation: health, accounts, tenancy, system status (shared/routes/index.ts: the table and what a row holds). */
import { platform } from './route';
import { CreateClientRequest, CreateCustomerRequest, CreateDeviceRequest, RegisterRequest } from '../schemas/accounts';
import { CreateClientResponse, CreateCustomerResponse, CreateDeviceResponse, HealthResponse, RegisterResponse, SystemStatusResponse, UsageResponse } from '../schemas/responses/foundation';

export const FOUNDATION_ROUTES = [
  platform({ id: 'health', method: 'GET', path: '/health', handler: 'get-health', auth: 'none', rate: 'none', body: 'none', summary: 'Service health', response: HealthResponse }),
  platform({ id: 'register', method: 'POST', path: '/api/register', handler: 'register-account', auth: 'none', body: 'json', summary: 'Register a user and issue an API key', request: { body: RegisterRequest }, response: RegisterResponse }),
  platform({ id: 'usage', method: 'GET', path: '/api/usage', handler: 'get-usage', body: 'none', summary: 'Usage and limits of the calling account', response: UsageResponse }),
  platform({ id: 'create-client', method: 'POST', path: '/api/create-client', handler: 'create-client', body: 'json', summary: 'Create a client', request: { body: CreateClientRequest }, response: CreateClientResponse }),
  platform({ id: 'create-customer', method: 'POST', path: '/api/create-customer', handler: 'create-customer', body: 'json', summary: 'Create a customer of a client', request: { body: CreateCustomerRequest }, response: CreateCustomerResponse }),
  platform({ id: 'create-device', method: 'POST', path: '/api/create-device', handler: 'create-device', body: 'json', summary: 'Register a device of a customer', request: { body: CreateDeviceRequest }, response: CreateDeviceResponse }),
  platform({ id: 'system-status', method: 'GET', path: '/api/system-status', handler: 'get-system-status', body: 'none', tier: 'enterprise', summary: 'System metrics (enterprise tier)', response: SystemStatusResponse }),
] as const;
