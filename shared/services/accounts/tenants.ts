/** Clients, customers and devices, owned by the account that creates them (ARCHITECTURE 3). */
import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '../../errors';
import {
  getClient, getCustomer, getDevice, insertClient, insertCustomer, insertDevice, saveCustomer,
  type ClientRecord, type CustomerRecord, type DeviceRecord, type DeviceState,
} from '../../store/tenants-repo';
import type { Caller } from '../../access/authentication';

const now = () => new Date().toISOString();
const publicView = <T extends { account_id: string }>({ account_id: _owner, ...rest }: T) => rest;

export async function createClient(caller: Caller, input: Omit<ClientRecord, 'account_id' | 'created_at'>) {
  const record: ClientRecord = { ...input, account_id: caller.accountId, created_at: now() };
  if (!(await insertClient(record))) throw new Conflict(`Client ${input.client_id} already exists`);
  return { status: 'success', message: 'Client created', client: publicView(record) };
}

/**
 * The caller's customer, claiming the id when nobody has used it yet ("first to use" owns it).
 * Another account's customer is reported exactly like a missing one.
 */
export async function ownedCustomer(caller: Caller, customerId: string): Promise<CustomerRecord> {
  const existing = await getCustomer(customerId);
  if (existing) {
    if (existing.account_id !== caller.accountId) throw new NotFound('Customer not found');
    return existing;
  }
  const claimed: CustomerRecord = { customer_id: customerId, account_id: caller.accountId, created_at: now() };
  if (await insertCustomer(claimed)) return claimed;
  return ownedCustomer(caller, customerId); // lost a race to another request: read the winner
}

/** The caller's customer if it exists, without claiming. */
export async function findOwnedCustomer(caller: Caller, customerId: string): Promise<CustomerRecord | undefined> {
  const existing = await getCustomer(customerId);
  return existing?.account_id === caller.accountId ? existing : undefined;
}

export async function createCustomer(caller: Caller, input: Omit<CustomerRecord, 'account_id' | 'created_at'>) {
  if (!(await getClient(caller.accountId, input.client_id!))) throw new NotFound('Client not found');
  const record: CustomerRecord = { ...input, account_id: caller.accountId, created_at: now() };
  if (!(await insertCustomer(record))) {
    // An id this account claimed by using it (an upload, say) may still get its profile once.
    const existing = await getCustomer(input.customer_id);
    if (existing?.account_id !== caller.accountId || existing.client_id) throw new Conflict(`Customer ${input.customer_id} already exists`);
    record.created_at = existing.created_at;
    await saveCustomer(record);
  }
  return { status: 'success', message: 'Customer created', customer: publicView(record) };
}

export async function createDevice(caller: Caller, input: Omit<DeviceRecord, 'account_id' | 'created_at' | 'device_id' | 'state'> & { state?: DeviceState }) {
  await ownedCustomer(caller, input.customer_id);
  const created = now();
  const { state, ...fields } = input;
  const record: DeviceRecord = {
    ...fields,
    ...(state && { state: { ...state, measured_at: state.measured_at ? new Date(state.measured_at).toISOString() : created, source: 'reported' } }),
    device_id: `dev_${randomUUID()}`,
    account_id: caller.accountId,
    created_at: created,
  };
  if (!(await insertDevice(record))) throw new Conflict(`A ${input.manufacturer} device with serial number ${input.serial_number} already exists`);
  return { status: 'success', message: 'Device created', device_id: record.device_id, device: publicView(record) };
}

/** The caller's device; another account's is reported exactly like a missing one. */
export async function ownedDevice(caller: Caller, deviceId: string): Promise<DeviceRecord> {
  const device = await getDevice(deviceId);
  if (!device || device.account_id !== caller.accountId) throw new NotFound('Device not found');
  return device;
}
