/**
 * Bill of materials for a maintenance job (SPEC "Bill of materials (BOM)", 4.3 /terminal/bom; Decide stage of
 * ARCHITECTURE 7), from the parts catalogue.
 *
 * Rules:
 * 1. The asset type selects a catalogue entry, case-insensitively with aliases (`solar_panel` is `pv_array`,
 *    `battery` is `bess`); an unknown type uses GENERIC_PARTS.
 * 2. A part is used when its `maintenance_types` hold the job's type; an emergency job also takes every
 *    corrective part, plus the call-out and expediting items of EMERGENCY_SERVICE_PARTS.
 * 3. The entry's common parts are counted on the whole asset: its capacity and its number of listed
 *    components (1 when it lists none).
 * 4. Each listed component belongs to the OEM group its `oem` names (catalogueFor / oemPartsFor), or to the
 *    entry's unbranded group when the catalogue has no parts for that OEM; an asset that lists no components
 *    is one unbranded component. Within an OEM group, the model names a family (`modelFamilyOf`: a Sunny Boy
 *    is not a Sunny Tripower) and only the parts that fit it are used; a model that names no known family
 *    takes every part of the group. A group's parts are counted on its components of one family and on
 *    their share of the capacity (capacity x components in it / components listed); `fixed` parts once each.
 * 5. Quantities are whole units, at least 1 for a part that applies. Costs are summed in integer cents,
 *    so every total is exact; the dollar figures are cents / 100 (12.34, never 12.340000000000002).
 * 6. Every BOM is indicative (catalogue values, not a quote) and priced in CATALOGUE_CURRENCY: it says so.
 * Items come in catalogue order: common parts, then groups in the order their OEM first appears among the
 * components, then the emergency service items.
 */
import { CATALOGUE_CURRENCY, catalogueFor, EMERGENCY_SERVICE_PARTS, modelFamilyOf, oemPartsFor, partFitsFamily, type CataloguePart, type PartGroup, type QuantityRule } from './parts-catalogue';
import { MAINTENANCE_TYPES, type MaintenanceType } from './schedules';

export interface AssetComponent {
  oem: string;
  model: string;
  serial: string;
}

export interface BomAsset {
  asset_id: string;
  type: string;
  capacity_kw: number;
  components?: readonly AssetComponent[];
}

export interface BomRequest {
  asset: BomAsset;
  maintenanceType: MaintenanceType;
}

export interface BomItem {
  part_number: string;
  description: string;
  quantity: number;
  /** Dollars, from integer cents. */
  unit_cost: number;
  /** Dollars: quantity x unit cost, computed in cents. */
  total_cost: number;
}

export interface Bom {
  items: BomItem[];
  /** Always true: catalogue parts and prices, not a quote (parts-catalogue.ts). */
  indicative: true;
  /** ISO 4217 code of every cost. */
  currency: string;
  /** Dollars: total_cost_cents / 100. */
  total_cost: number;
  total_cost_cents: number;
}

/** Largest capacity costed (10 GW): far above any single asset, and keeps every cent total a safe integer. */
export const BOM_MAX_CAPACITY_KW = 10_000_000;

/** The request cannot be costed (a validation gap upstream: the handler validates these fields first). */
export class InvalidBomRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidBomRequest';
  }
}

/** Dollars from integer cents: the division of an integer by 100 is the double nearest the decimal. */
export const centsToDollars = (cents: number): number => cents / 100;

// capacity x rate in binary floating point can land just above a whole number (0.07 x 100 = 7.000000000000001);
// that must not cost a whole extra unit.
const wholeUnits = (x: number): number => Math.max(1, Math.ceil(x - 1e-9 * Math.max(1, x)));

/** Units of a part for a group of `components` components holding `capacityKw` of the asset's capacity. */
export function quantityOf(rule: QuantityRule, capacityKw: number, components: number): number {
  switch (rule.per) {
    case 'fixed':
      return rule.quantity;
    case 'per_kw':
      return wholeUnits(capacityKw * rule.quantity_per_kw);
    case 'per_n_kw':
      return wholeUnits(capacityKw / rule.n_kw) * rule.quantity;
    case 'per_component':
      return rule.quantity * components;
  }
}

/** Rule 2: an emergency is a corrective job done at once, so it takes the corrective parts too. */
export const partApplies = (part: CataloguePart, type: MaintenanceType): boolean =>
  part.maintenance_types.includes(type) || (type === 'emergency' && part.maintenance_types.includes('corrective'));

interface Slice {
  group: PartGroup;
  /** Model family of the slice's components within the group ('' = any). */
  family: string;
  components: number;
  capacityKw: number;
}

/** Rule 4: the asset's components, grouped by the catalogue group of their OEM, in order of first appearance. */
function slicesOf(asset: BomAsset): Slice[] {
  const entry = catalogueFor(asset.type);
  const components = asset.components ?? [];
  if (components.length === 0) return [{ group: entry.unbranded, family: '', components: 1, capacityKw: asset.capacity_kw }];
  const slices = new Map<string, Slice>();
  const groupIds = new Map<PartGroup, number>();
  for (const c of components) {
    const group = oemPartsFor(entry, c.oem) ?? entry.unbranded;
    const family = modelFamilyOf(group, c.model);
    const key = `${groupIds.get(group) ?? groupIds.set(group, groupIds.size).get(group)}#${family}`;
    const slice = slices.get(key) ?? slices.set(key, { group, family, components: 0, capacityKw: 0 }).get(key)!;
    slice.components++;
  }
  for (const slice of slices.values()) slice.capacityKw = (asset.capacity_kw * slice.components) / components.length;
  return [...slices.values()];
}

function validate({ asset, maintenanceType }: BomRequest): void {
  if (!MAINTENANCE_TYPES.includes(maintenanceType)) throw new InvalidBomRequest(`maintenance_type must be one of ${MAINTENANCE_TYPES.join(', ')}`);
  if (!(Number.isFinite(asset.capacity_kw) && asset.capacity_kw > 0 && asset.capacity_kw <= BOM_MAX_CAPACITY_KW)) {
    throw new InvalidBomRequest(`capacity_kw must be a number above 0 and at most ${BOM_MAX_CAPACITY_KW}`);
  }
  if (typeof asset.type !== 'string') throw new InvalidBomRequest('type must be a string');
}

/** The bill of materials of a maintenance job of `maintenanceType` on `asset` (rules in the module comment). */
export function generateBom(request: BomRequest): Bom {
  validate(request);
  const { asset, maintenanceType } = request;
  const entry = catalogueFor(asset.type);
  const slices: Slice[] = [
    { group: entry.common, family: '', components: Math.max(1, asset.components?.length ?? 0), capacityKw: asset.capacity_kw },
    ...slicesOf(asset),
    ...(maintenanceType === 'emergency' ? [{ group: EMERGENCY_SERVICE_PARTS, family: '', components: 1, capacityKw: asset.capacity_kw }] : []),
  ];

  const items: BomItem[] = [];
  const lineOf = new Map<string, { item: BomItem; cents: number; fixed: boolean }>();
  let totalCents = 0;
  for (const { group, family, components, capacityKw } of slices) {
    for (const part of group.parts) {
      if (!partApplies(part, maintenanceType) || !partFitsFamily(part, family)) continue;
      const quantity = quantityOf(part.quantity, capacityKw, components);
      // Two families of one OEM share its family-less parts: one line, `fixed` parts counted once.
      const line = lineOf.get(part.part_number);
      if (line?.fixed) continue;
      const lineCents = part.unit_cost_cents * quantity;
      totalCents += lineCents;
      if (line) {
        line.cents += lineCents;
        line.item.quantity += quantity;
        line.item.total_cost = centsToDollars(line.cents);
        continue;
      }
      const item = { part_number: part.part_number, description: part.description, quantity, unit_cost: centsToDollars(part.unit_cost_cents), total_cost: centsToDollars(lineCents) };
      lineOf.set(part.part_number, { item, cents: lineCents, fixed: part.quantity.per === 'fixed' });
      items.push(item);
    }
  }
  return { items, indicative: true, currency: CATALOGUE_CURRENCY, total_cost: centsToDollars(totalCents), total_cost_cents: totalCents };
}
