/** Request schemas of the account and tenancy endpoints (SPEC 4.1). */
import * as z from 'zod';
import { MIN_ROUNDTRIP_EFFICIENCY } from '../domain/physical-bounds';
import { MAX_ID_LENGTH, energyKwh, powerKw } from './bounds';

const text = (max = 200) => z.string().trim().min(1).max(max);
/** Ids a caller creates name keys and S3 paths: within the id bound (bounds.ts), and a safer alphabet still. */
const id = () => z.string().trim().min(1).max(MAX_ID_LENGTH).regex(/^[A-Za-z0-9._:-]+$/, 'may contain only letters, digits and . _ : -');

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
  capacity_kw: powerKw().positive(),
  installation_date: z.iso.date(),
  /** Not in the spec: ratings and limits that real-time dispatch checks commands against (README: dispatch). */
  energy_capacity_kwh: energyKwh().positive().optional(),
  min_soc: z.number().min(0).max(1).optional(),
  max_soc: z.number().min(0).max(1).optional(),
  roundtrip_efficiency: z.number().min(MIN_ROUNDTRIP_EFFICIENCY).max(1).optional(),
  grid_export_limit_kw: powerKw().optional(),
  grid_import_limit_kw: powerKw().optional(),
  min_temperature_c: z.number().min(-60).max(120).optional(),
  max_temperature_c: z.number().min(-60).max(120).optional(),
  /** The device's state when it is registered; real-time commands may report a newer one. */
  state: z
    .object({ soc: z.number().min(0).max(1).optional(), temperature_c: z.number().min(-60).max(120).optional(), measured_at: z.iso.datetime({ offset: true }).optional() })
    .optional(),
})
  .refine((d) => d.min_soc === undefined || d.max_soc === undefined || d.min_soc < d.max_soc, { message: 'min_soc must be below max_soc', path: ['min_soc'] })
  .refine((d) => d.min_temperature_c === undefined || d.max_temperature_c === undefined || d.min_temperature_c < d.max_temperature_c, {
    message: 'min_temperature_c must be below max_temperature_c',
    path: ['min_temperature_c'],
  });

export { id as idSchema, text as textSchema };
