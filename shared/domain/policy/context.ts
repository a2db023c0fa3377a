/**
 * Normalising the request's free-text context (region, sector, project_size, installation_type) into
 * filters, and deciding whether an entry or record applies to a context.
 *
 * A value we cannot read sets no filter on its dimension and leaves a note saying so, so the caller
 * sees why the answer is broader than asked.
 */
import type { Applicability, InstallationType, PolicyEntry, PolicyRegion, Sector, SizeRangeKw } from './types';

export interface PolicyContextInput {
  region?: string;
  sector?: string;
  project_size?: string | number;
  installation_type?: string;
}

export interface NormalisedPolicyContext {
  /** Region filter; set whenever `jurisdiction` is. */
  region?: PolicyRegion;
  /** Most specific jurisdiction named ("US-CA", "DE"); undefined for a region-wide context ("Europe"). */
  jurisdiction?: string;
  sectors?: Sector[];
  /** Capacity in kW (AC or DC as given: the knowledge base's thresholds are not precise enough to tell). */
  project_size_kw?: number;
  installation_types?: InstallationType[];
  /** A region the request named that the knowledge base does not cover (e.g. "Brazil"): nothing in it applies. */
  uncovered_region?: string;
  /** Why a dimension was widened or interpreted. */
  notes: string[];
}

interface JurisdictionInfo {
  name: string;
  region: PolicyRegion;
  parent?: string;
}

const EU_MEMBER_STATES: Record<string, string> = {
  AT: 'Austria', BE: 'Belgium', BG: 'Bulgaria', HR: 'Croatia', CY: 'Cyprus', CZ: 'Czechia', DK: 'Denmark',
  EE: 'Estonia', FI: 'Finland', FR: 'France', DE: 'Germany', GR: 'Greece', HU: 'Hungary', IE: 'Ireland',
  IT: 'Italy', LV: 'Latvia', LT: 'Lithuania', LU: 'Luxembourg', MT: 'Malta', NL: 'Netherlands', PL: 'Poland',
  PT: 'Portugal', RO: 'Romania', SK: 'Slovakia', SI: 'Slovenia', ES: 'Spain', SE: 'Sweden',
};

const US_STATES: Record<string, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois',
  IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland',
  MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York',
  NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
  DC: 'District of Columbia',
};

const CANADIAN_PROVINCES: Record<string, string> = {
  AB: 'Alberta', BC: 'British Columbia', MB: 'Manitoba', NB: 'New Brunswick', NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia', NT: 'Northwest Territories', NU: 'Nunavut', ON: 'Ontario', PE: 'Prince Edward Island',
  QC: 'Quebec', SK: 'Saskatchewan', YT: 'Yukon',
};

const SSA_COUNTRIES: Record<string, string> = {
  ZA: 'South Africa', KE: 'Kenya', NG: 'Nigeria', GH: 'Ghana', RW: 'Rwanda', TZ: 'Tanzania', UG: 'Uganda',
  ET: 'Ethiopia', SN: 'Senegal', CI: "Cote d'Ivoire", ZM: 'Zambia', ZW: 'Zimbabwe', BW: 'Botswana',
  MZ: 'Mozambique', MW: 'Malawi', CM: 'Cameroon',
};

/** Jurisdiction codes, their region and parent. A context sees its own entries, its ancestors' and its descendants'. */
export const JURISDICTIONS: ReadonlyMap<string, JurisdictionInfo> = (() => {
  const map = new Map<string, JurisdictionInfo>();
  map.set('EU', { name: 'European Union', region: 'EU' });
  for (const [code, name] of Object.entries(EU_MEMBER_STATES)) map.set(code, { name, region: 'EU', parent: 'EU' });
  map.set('US', { name: 'United States', region: 'NA' });
  for (const [code, name] of Object.entries(US_STATES)) map.set(`US-${code}`, { name, region: 'NA', parent: 'US' });
  map.set('CA', { name: 'Canada', region: 'NA' });
  for (const [code, name] of Object.entries(CANADIAN_PROVINCES)) map.set(`CA-${code}`, { name, region: 'NA', parent: 'CA' });
  for (const [code, name] of Object.entries(SSA_COUNTRIES)) map.set(code, { name, region: 'SSA' });
  return map;
})();

const namesOf = (codes: Record<string, string>) => Object.values(codes).join(', ');

/** What the knowledge base covers, as told to a caller whose region it does not. */
export const COVERED_REGIONS: readonly { region: string; jurisdictions: string }[] = [
  { region: 'European Union', jurisdictions: `EU-wide rules and the 27 member states: ${namesOf(EU_MEMBER_STATES)}` },
  { region: 'North America', jurisdictions: `United States (federal, the 50 states and DC) and Canada (federal, ${namesOf(CANADIAN_PROVINCES)})` },
  { region: 'Sub-Saharan Africa', jurisdictions: namesOf(SSA_COUNTRIES) },
];

/** Display name of a jurisdiction code ("US-CA" -> "California"). */
export function jurisdictionName(code: string): string {
  return JURISDICTIONS.get(code)?.name ?? code;
}

/** The code and its ancestors, most specific first ("US-CA" -> ["US-CA", "US"]). */
export function jurisdictionChain(code: string): string[] {
  const chain: string[] = [];
  for (let c: string | undefined = code; c !== undefined; c = JURISDICTIONS.get(c)?.parent) chain.push(c);
  return chain;
}

/** Lower case, accents removed, punctuation other than + and - turned to spaces, spaces collapsed. */
function simplify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9+\-.\s]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

type RegionTarget = { region: PolicyRegion; jurisdiction?: string };

const REGION_ALIASES: ReadonlyMap<string, RegionTarget> = (() => {
  const aliases = new Map<string, RegionTarget>();
  const add = (alias: string, target: RegionTarget) => aliases.set(simplify(alias), target);
  for (const [alias, region] of [
    ['eu', 'EU'], ['europe', 'EU'], ['european union', 'EU'], ['emea', 'EU'],
    ['na', 'NA'], ['north america', 'NA'], ['americas', 'NA'],
    ['ssa', 'SSA'], ['africa', 'SSA'], ['sub-saharan africa', 'SSA'], ['sub saharan africa', 'SSA'], ['subsaharan africa', 'SSA'],
  ] as const) add(alias, { region });
  for (const [code, info] of JURISDICTIONS) {
    if (code === 'EU') continue;
    add(info.name, { region: info.region, jurisdiction: code });
    add(code, { region: info.region, jurisdiction: code });
    if (info.parent === 'US') add(`${code.slice(3)} usa`, { region: 'NA', jurisdiction: code });
  }
  // "CA" is Canada (ISO 3166-1), not California: California is "US-CA" or its name (see the note below).
  add('ca', { region: 'NA', jurisdiction: 'CA' });
  for (const alias of ['us', 'usa', 'u.s.', 'u.s.a.', 'united states', 'united states of america', 'america', 'us federal'])
    add(alias, { region: 'NA', jurisdiction: 'US' });
  for (const alias of ['deutschland', 'german']) add(alias, { region: 'EU', jurisdiction: 'DE' });
  for (const alias of ['espana', 'spanish']) add(alias, { region: 'EU', jurisdiction: 'ES' });
  for (const alias of ['italia']) add(alias, { region: 'EU', jurisdiction: 'IT' });
  for (const alias of ['holland', 'the netherlands', 'nederland']) add(alias, { region: 'EU', jurisdiction: 'NL' });
  for (const alias of ['polska']) add(alias, { region: 'EU', jurisdiction: 'PL' });
  for (const alias of ['rsa', 'republic of south africa']) add(alias, { region: 'SSA', jurisdiction: 'ZA' });
  for (const alias of ['cape town', 'johannesburg', 'durban', 'pretoria']) add(alias, { region: 'SSA', jurisdiction: 'ZA' });
  for (const alias of ['nairobi', 'mombasa']) add(alias, { region: 'SSA', jurisdiction: 'KE' });
  for (const alias of ['lagos', 'abuja']) add(alias, { region: 'SSA', jurisdiction: 'NG' });
  return aliases;
})();

function depth(target: RegionTarget): number {
  return target.jurisdiction === undefined ? 0 : jurisdictionChain(target.jurisdiction).length;
}

function normaliseRegion(raw: string, notes: string[]): RegionTarget | undefined {
  const whole = REGION_ALIASES.get(simplify(raw));
  let best = whole;
  if (!best) {
    // "California, USA" or "Bavaria (Germany)": the most specific recognised piece wins.
    for (const piece of raw.split(/[,;/()|]+/)) {
      const target = REGION_ALIASES.get(simplify(piece));
      if (target && (!best || depth(target) > depth(best))) best = target;
    }
  }
  if (!best) {
    notes.push(`Region "${raw}" is not one the knowledge base covers (${COVERED_REGIONS.map((r) => r.region).join(', ')}).`);
    return undefined;
  }
  if (simplify(raw) === 'ca') notes.push('Region "CA" read as Canada; use "US-CA" or "California" for the US state.');
  return best;
}

const SECTOR_PATTERNS: ReadonlyArray<[RegExp, Sector[]]> = [
  [/\bc and i\b|\bcommercial and industrial\b/, ['commercial', 'industrial']],
  [/\bresiden|\bhome|\bhouse|\bdomestic|\bapartment|\bmulti-?family|\bsingle-?family|\bdwelling|\bprosumer/, ['residential']],
  [/\bcommerc|\bbusiness|\boffice|\bretail|\bshop|\bsme\b|\bhotel|\bschool|\bhospital|\bpublic\b|\bmunicipal|\bfarm|\bagricultur/, ['commercial']],
  [/\bindustr|\bfactory|\bmanufactur|\bwarehouse|\bmining|\bmine\b/, ['industrial']],
  [/\butility|\bgrid-?scale|\bipp\b|\bindependent power|\bwholesale|\bmerchant|\bsolar farm|\bsolar park|\bwind farm/, ['utility']],
];

function normaliseSector(raw: string, notes: string[]): Sector[] | undefined {
  const text = simplify(raw.replace(/&/g, ' and '));
  const found = new Set<Sector>();
  for (const [pattern, sectors] of SECTOR_PATTERNS) if (pattern.test(text)) sectors.forEach((s) => found.add(s));
  if (found.size === 0) {
    notes.push(`Sector "${raw}" not recognised (residential, commercial, industrial, utility): no sector filter applied.`);
    return undefined;
  }
  return [...found];
}

const UNIT_TO_KW: Record<string, number> = { w: 0.001, kw: 1, mw: 1000, gw: 1_000_000 };

/** "50 kW", "2 MW", "500kWp", "1.5 MWp", "1,5 MW", "5 MW AC", "10 kVA" or a bare number (kW) -> kW; else undefined. */
export function parseProjectSizeKw(raw: string | number): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) && raw > 0 ? raw : undefined;
  const match = /^(?:about|approx\.?|~)?\s*(\d{1,3}(?:,\d{3})+|\d+(?:[.,]\d+)?)\s*(?:([kmg]?)(w|va)\s*(?:p|peak|ac|dc|e)?)?$/.exec(raw.trim().toLowerCase());
  if (!match) return undefined;
  const [, numberText, prefix = '', unit] = match;
  // A comma before groups of exactly three digits separates thousands ("1,500 kW"); otherwise it is a decimal comma ("1,5 MW").
  const value = Number(/^\d{1,3}(,\d{3})+$/.test(numberText) ? numberText.replace(/,/g, '') : numberText.replace(',', '.'));
  const kw = unit === undefined ? value : value * UNIT_TO_KW[`${prefix}w`];
  return Number.isFinite(kw) && kw > 0 ? kw : undefined;
}

function normaliseSize(raw: string | number, notes: string[]): number | undefined {
  const kw = parseProjectSizeKw(raw);
  if (kw === undefined) {
    const energy = typeof raw === 'string' && /wh\b/i.test(raw);
    notes.push(
      energy
        ? `Project size "${raw}" is an energy (Wh), not a power: no size filter applied; give the power in kW or MW.`
        : `Project size "${raw}" not understood (expected e.g. "50 kW", "2 MW", "500 kWp"): no size filter applied.`,
    );
  }
  return kw;
}

const SOLAR_MOUNTS: InstallationType[] = ['rooftop_solar', 'ground_mount_solar', 'carport_solar'];

const INSTALLATION_PATTERNS: ReadonlyArray<[RegExp, InstallationType]> = [
  [/\broof|\bbalcony|\bplug-?in|\bbuilding-?integrated|\bbipv\b/, 'rooftop_solar'],
  [/\bground|\bsolar farm|\bsolar park|\bfield|\bagri-?(pv|voltaic)|\bfloating|\butility-?scale solar/, 'ground_mount_solar'],
  [/\bcarport|\bcanop|\bparking|\bombriere/, 'carport_solar'],
  [/\bbatter|\bstorage|\bbess\b|\bess\b/, 'battery_storage'],
  [/\bwind|\bturbine/, 'wind'],
  [/\bwater heat|\bsolar thermal|\bswh\b|\bhot water/, 'solar_water_heating'],
  [/\bmini-?\s?grid|\bmicro-?\s?grid/, 'mini_grid'],
];

function normaliseInstallationType(raw: string, notes: string[]): InstallationType[] | undefined {
  const text = simplify(raw);
  const found = new Set<InstallationType>();
  for (const [pattern, type] of INSTALLATION_PATTERNS) if (pattern.test(text)) found.add(type);
  const mentionsPv = /\bsolar|\bpv\b|\bphotovoltaic/.test(text);
  const hasSolarKind = SOLAR_MOUNTS.some((t) => found.has(t)) || found.has('solar_water_heating');
  // "solar" or "PV" without a mounting: any of the three mountings.
  if (mentionsPv && !hasSolarKind) SOLAR_MOUNTS.forEach((t) => found.add(t));
  if (found.size === 0) {
    notes.push(`Installation type "${raw}" not recognised (e.g. rooftop solar, ground-mounted PV, battery, wind): no installation filter applied.`);
    return undefined;
  }
  return [...found];
}

/**
 * Above this capacity a project whose sector is not given is taken as non-residential, so that residential-only
 * rules and incentives (home tax credits, balcony devices) are not offered to, say, a 5 MW solar park.
 * Household systems are in the single-digit to tens of kW; 100 kW leaves a wide margin.
 */
export const RESIDENTIAL_MAX_KW = 100;

/** Turn the request's context strings into filters; unknown or absent values set no filter. */
export function normalisePolicyContext(input: PolicyContextInput = {}): NormalisedPolicyContext {
  const notes: string[] = [];
  const context: NormalisedPolicyContext = { notes };
  if (input.region !== undefined && String(input.region).trim() !== '') {
    const target = normaliseRegion(String(input.region), notes);
    if (target) {
      context.region = target.region;
      if (target.jurisdiction) context.jurisdiction = target.jurisdiction;
    } else context.uncovered_region = String(input.region).trim();
  }
  if (input.sector !== undefined && String(input.sector).trim() !== '') {
    const sectors = normaliseSector(String(input.sector), notes);
    if (sectors) context.sectors = sectors;
  }
  if (input.project_size !== undefined && String(input.project_size).trim() !== '') {
    const kw = normaliseSize(input.project_size, notes);
    if (kw !== undefined) context.project_size_kw = kw;
  }
  if (input.installation_type !== undefined && String(input.installation_type).trim() !== '') {
    const types = normaliseInstallationType(String(input.installation_type), notes);
    if (types) context.installation_types = types;
  }
  if (context.sectors === undefined && context.project_size_kw !== undefined && context.project_size_kw > RESIDENTIAL_MAX_KW) {
    context.sectors = ['commercial', 'industrial', 'utility'];
    notes.push(`Sector not given: a ${context.project_size_kw} kW project is taken as non-residential (above ${RESIDENTIAL_MAX_KW} kW).`);
  }
  return context;
}

/** Whether a jurisdiction is visible from the context: same region, and on the context's line of descent. */
export function jurisdictionVisible(entryJurisdiction: string, context: NormalisedPolicyContext): boolean {
  if (context.jurisdiction !== undefined) {
    return jurisdictionChain(context.jurisdiction).includes(entryJurisdiction) || jurisdictionChain(entryJurisdiction).includes(context.jurisdiction);
  }
  if (context.region !== undefined) return JURISDICTIONS.get(entryJurisdiction)?.region === context.region;
  return true;
}

function withinSize(range: SizeRangeKw, kw: number): boolean {
  return (range.min === undefined || kw >= range.min) && (range.max === undefined || kw <= range.max);
}

/** Whether record filters (entry-level or a record's `applies_to`) contradict a known value of the context. */
export function applicabilityConflicts(filters: Applicability, context: NormalisedPolicyContext): boolean {
  if (filters.sectors && context.sectors && !filters.sectors.some((s) => context.sectors!.includes(s))) return true;
  if (filters.installation_types && context.installation_types && !filters.installation_types.some((t) => context.installation_types!.includes(t))) return true;
  if (filters.project_size_kw && context.project_size_kw !== undefined && !withinSize(filters.project_size_kw, context.project_size_kw)) return true;
  return false;
}

/**
 * Whether the record's filters narrow a dimension the context leaves open (e.g. a size threshold when no
 * size was given): its applicability then has to be checked by the user.
 */
export function applicabilityUndetermined(filters: Applicability, context: NormalisedPolicyContext): boolean {
  if (filters.sectors && !context.sectors) return true;
  if (filters.installation_types && !context.installation_types) return true;
  const range = filters.project_size_kw;
  if (range && (range.min !== undefined || range.max !== undefined) && context.project_size_kw === undefined) return true;
  return false;
}

/** The entry's own filters in record form, so entries and records are judged alike. */
export function entryApplicability(entry: PolicyEntry): Applicability {
  return {
    sectors: entry.sector.length < 4 ? entry.sector : undefined,
    installation_types: entry.installation_types,
    project_size_kw: entry.project_size_kw,
  };
}

/** Whether an entry applies to the context: jurisdiction visible, and no known sector, size or type excluded. */
export function entryApplies(entry: PolicyEntry, context: NormalisedPolicyContext): boolean {
  if (context.region !== undefined && entry.region !== context.region) return false;
  if (!jurisdictionVisible(entry.jurisdiction, context)) return false;
  return !applicabilityConflicts({ sectors: entry.sector, installation_types: entry.installation_types, project_size_kw: entry.project_size_kw }, context);
}

/** Short description of the context for answers ("California, residential, 8 kW, rooftop_solar"). */
export function describeContext(context: NormalisedPolicyContext): string {
  const parts: string[] = [];
  if (context.jurisdiction) parts.push(jurisdictionName(context.jurisdiction));
  else if (context.region) parts.push({ EU: 'European Union', NA: 'North America', SSA: 'Sub-Saharan Africa' }[context.region]);
  if (context.sectors) parts.push(context.sectors.join('/'));
  if (context.project_size_kw !== undefined) parts.push(`${context.project_size_kw} kW`);
  if (context.installation_types) parts.push(context.installation_types.join('/').replace(/_/g, ' '));
  return parts.length ? parts.join(', ') : 'no context given';
}
