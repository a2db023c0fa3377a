/** Clients, customers and devices of an account (ARCHITECTURE 3: tenancy). */
import { deleteItem, getRecord, listIndexed, putItem, putNew, setFields } from './dynamo';
import { keys } from './keys';

export interface ClientRecord {
  client_id: string;
  name: string;
  contact_email: string;
  tier: string;
  services: string[];
  account_id: string;
  created_at: string;
}

export interface CustomerRecord {
  customer_id: string;
  account_id: string;
  client_id?: string;
  contact_name?: string;
  email?: string;
  location?: string;
  system_type?: string;
  created_at: string;
}

export interface DeviceRecord {
  device_id: string;
  customer_id: string;
  account_id: string;
  device_type: string;
  serial_number: string;
  manufacturer: string;
  capacity_kw: number;
  installation_date: string;
  created_at: string;
  energy_capacity_kwh?: number;
  min_soc?: number;
  max_soc?: number;
  roundtrip_efficiency?: number;
  grid_export_limit_kw?: number;
  grid_import_limit_kw?: number;
  min_temperature_c?: number;
  max_temperature_c?: number;
  /** Last known state: as registered, as reported with a command, or as projected by an accepted command. */
  state?: DeviceState;
}

export interface DeviceState {
  soc?: number;
  temperature_c?: number;
  measured_at?: string;
  /** `reported` by the operator or `projected` from an accepted command. */
  source?: 'reported' | 'projected';
  command_id?: string;
}

/** Client ids are chosen by the caller and unique within the account. Returns false when taken. */
export const insertClient = (c: ClientRecord): Promise<boolean> =>
  putNew('accounts', { ...keys.client(c.account_id, c.client_id), ...c });

export async function getClient(accountId: string, clientId: string): Promise<ClientRecord | undefined> {
  return getRecord<ClientRecord>('accounts', keys.client(accountId, clientId));
}

/** Claims a customer id for an account. Returns false when the id already exists (any owner). */
export const insertCustomer = (c: CustomerRecord): Promise<boolean> =>
  putNew('accounts', { ...keys.customer(c.customer_id), ...keys.accountCustomersIndex(c.account_id), gsi1sk: c.customer_id, ...c });

/** Fills in the profile of a customer the account already owns (claimed earlier by first use). */
export const saveCustomer = (c: CustomerRecord): Promise<void> =>
  putItem('accounts', { ...keys.customer(c.customer_id), ...keys.accountCustomersIndex(c.account_id), gsi1sk: c.customer_id, ...c });

export async function getCustomer(customerId: string): Promise<CustomerRecord | undefined> {
  return getRecord<CustomerRecord>('accounts', keys.customer(customerId));
}

export async function listCustomers(accountId: string): Promise<CustomerRecord[]> {
  return listIndexed<CustomerRecord>('accounts', keys.accountCustomersIndex(accountId).gsi1pk);
}

/** Inserts a device after reserving its manufacturer and serial number. Returns false when that pair exists. */
export async function insertDevice(d: DeviceRecord): Promise<boolean> {
  if (!(await putNew('accounts', { ...keys.deviceSerial(d.manufacturer, d.serial_number), device_id: d.device_id }))) return false;
  try {
    await putItem('accounts', { ...keys.device(d.device_id), ...keys.customerDevicesIndex(d.customer_id), gsi1sk: d.device_id, ...d });
  } catch (err) {
    await deleteItem('accounts', keys.deviceSerial(d.manufacturer, d.serial_number));
    throw err;
  }
  return true;
}

export async function getDevice(deviceId: string): Promise<DeviceRecord | undefined> {
  return getRecord<DeviceRecord>('accounts', keys.device(deviceId));
}

/** The devices registered for a customer. */
export async function listCustomerDevices(customerId: string): Promise<DeviceRecord[]> {
  return listIndexed<DeviceRecord>('accounts', keys.customerDevicesIndex(customerId).gsi1pk);
}

/** Replaces the device's last known state. */
export const saveDeviceState = (deviceId: string, state: DeviceState): Promise<boolean> => setFields('accounts', keys.device(deviceId), { state });
