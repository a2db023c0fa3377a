/** Request schemas of the account and tenancy endpoints (SPEC 4.1). */
import { z } from 'zod';

const text = (max = 200) => z.string().trim().min(1).max(max);
/** Caller-chosen ids appear in keys and S3 paths: keep them to a safe alphabet. */
const id = () => z.string().trim().min(1).max(128).regex(/^[A-Za-z0-9._:-]+$/, 'may contain only letters, digits and . _ : -');

export const RegisterRequest = z.object({
  email: z.email().max(254),
  organization: text().optional(),
  use_case: text(1000).optional(),
  tier_preference: z.string().max(40).optional(),
});

export const SERVICES = ['forecasting', 'optimization', 'policy_intelligence', 'asset_operations', 'data_cleaning'] as const;

export const CreateClientRequest = z.object({
  client_id: id(),
  name: text(),
  contact_email: z.email(),
  tier: z.enum(['free', 'professional', 'enterprise']).default('free'),
  services: z.array(z.enum(SERVICES)).default([]),
});

export const CreateCustomerRequest = z.object({
  client_id: id(),
  customer_id: id(),
  contact_name: text(),
  email: z.email(),
  location: text(),
  system_type: text(60),
});

export const CreateDeviceRequest = z.object({
  customer_id: id(),
  device_type: text(60),
  serial_number: text(128),
  manufacturer: text(),
  capacity_kw: z.number().positive().max(10_000_000),
  installation_date: z.iso.date(),
});

export { id as idSchema, text as textSchema };
