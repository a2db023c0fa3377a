import { useRuntime } from '../helpers/runtime';
import { registerAccount } from '../../shared/services/accounts/accounts';
import { authenticate, type Caller } from '../../shared/access/authentication';
import { createClient, createCustomer, createDevice, ownedCustomer } from '../../shared/services/accounts/tenants';
import { addAsset, assetOf, listAssetsOf } from '../../shared/services/operations/assets';
import { Conflict, NotFound } from '../../shared/errors';

const uid = () => Math.random().toString(36).slice(2, 10);

async function caller(): Promise<Caller> {
  const { api_key } = await registerAccount({ email: `tenant-${uid()}@example.com` });
  return authenticate(api_key);
}

const client = (client_id: string) => ({ client_id, name: 'Solar Co', contact_email: 'ops@solar.example', tier: 'free', services: ['forecasting'] });
const customer = (client_id: string, customer_id: string) => ({ client_id, customer_id, contact_name: 'A. Owner', email: 'owner@example.com', location: 'Berlin', system_type: 'solar' });
const device = (customer_id: string, serial_number: string) => ({ customer_id, device_type: 'battery', serial_number, manufacturer: 'BYD', capacity_kw: 10, installation_date: '2024-03-15' });

describe('tenancy against the embedded DynamoDB', () => {
  useRuntime();

  it('creates a client once per account and lets another account use the same id', async () => {
    const [a, b] = [await caller(), await caller()];
    const id = `client-${uid()}`;
    await expect(createClient(a, client(id))).resolves.toMatchObject({ status: 'success', client: { client_id: id } });
    await expect(createClient(a, client(id))).rejects.toBeInstanceOf(Conflict);
    await expect(createClient(b, client(id))).resolves.toMatchObject({ status: 'success' });
  });

  it('needs the caller’s own client for a customer', async () => {
    const [a, b] = [await caller(), await caller()];
    const clientId = `client-${uid()}`;
    await createClient(a, client(clientId));
    await expect(createCustomer(b, customer(clientId, `cust-${uid()}`))).rejects.toThrow(new NotFound('Client not found'));
    await expect(createCustomer(a, customer(clientId, `cust-${uid()}`))).resolves.toMatchObject({ status: 'success' });
  });

  it('gives a customer id to the first account that uses it and hides it from others', async () => {
    const [a, b] = [await caller(), await caller()];
    const id = `cust-${uid()}`;
    await ownedCustomer(a, id);
    await expect(ownedCustomer(b, id)).rejects.toBeInstanceOf(NotFound);
    await expect(ownedCustomer(a, id)).resolves.toMatchObject({ customer_id: id, account_id: a.accountId });
  });

  it('lets the owner give a claimed customer its profile once', async () => {
    const a = await caller();
    const [clientId, id] = [`client-${uid()}`, `cust-${uid()}`];
    await createClient(a, client(clientId));
    await ownedCustomer(a, id);
    await expect(createCustomer(a, customer(clientId, id))).resolves.toMatchObject({ customer: { customer_id: id, contact_name: 'A. Owner' } });
    await expect(createCustomer(a, customer(clientId, id))).rejects.toBeInstanceOf(Conflict);
  });

  it('creates a device with an id of its own and refuses a repeated serial number', async () => {
    const a = await caller();
    const custId = `cust-${uid()}`;
    const serial = `SN-${uid()}`;
    const created = await createDevice(a, device(custId, serial));
    expect(created.device_id).toMatch(/^dev_/);
    await expect(createDevice(a, device(custId, serial))).rejects.toBeInstanceOf(Conflict);
  });

  it('refuses a device for another account’s customer as if it did not exist', async () => {
    const [a, b] = [await caller(), await caller()];
    const custId = `cust-${uid()}`;
    await createDevice(a, device(custId, `SN-${uid()}`));
    await expect(createDevice(b, device(custId, `SN-${uid()}`))).rejects.toThrow(new NotFound('Customer not found'));
  });

  it('keeps assets per account', async () => {
    const [a, b] = [await caller(), await caller()];
    const asset = { asset_id: `asset-${uid()}`, name: 'Inverter 1', type: 'inverter', capacity_kw: 25, location: 'Berlin' };
    await addAsset(a, asset);
    await expect(addAsset(a, asset)).rejects.toBeInstanceOf(Conflict);
    expect((await listAssetsOf(a)).count).toBe(1);
    expect((await listAssetsOf(b)).count).toBe(0);
    await expect(assetOf(b, asset.asset_id)).rejects.toThrow(new NotFound('Asset not found'));
  });
});
