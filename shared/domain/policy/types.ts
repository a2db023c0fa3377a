/**
 * Vocabulary of the policy knowledge base (ARCHITECTURE 7, "Policy"): the three regions the service covers,
 * the sectors and installation types an entry applies to, and the structured requirement and incentive
 * records from which checklists and incentive lists are built.
 */

/**
 * Regions of the service. `EU` = European Union law and its Member States; `NA` = North America (United
 * States federal and states, Canada federal and provinces); `SSA` = Sub-Saharan Africa (South Africa, Kenya,
 * Nigeria, ...). An entry's `region` is the region of its `jurisdiction` (see JURISDICTIONS in context.ts).
 */
export const POLICY_REGIONS = ['EU', 'NA', 'SSA'] as const;
export type PolicyRegion = (typeof POLICY_REGIONS)[number];

export const SECTORS = ['residential', 'commercial', 'industrial', 'utility'] as const;
export type Sector = (typeof SECTORS)[number];

export const INSTALLATION_TYPES = [
  'rooftop_solar',
  'ground_mount_solar',
  'carport_solar',
  'battery_storage',
  'wind',
  'solar_water_heating',
  'mini_grid',
] as const;
export type InstallationType = (typeof INSTALLATION_TYPES)[number];

export const POLICY_KINDS = ['regulation', 'grid_code', 'permitting', 'incentive', 'tariff', 'standard'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** Project stages in the order a project meets them; next steps are listed in this order. */
export const REQUIREMENT_STAGES = ['design', 'procurement', 'permitting', 'construction', 'connection', 'operation'] as const;
export type RequirementStage = (typeof REQUIREMENT_STAGES)[number];

/**
 * How binding a requirement record is, as curated: `mandatory` applies to every project the record's filters
 * select; `conditional` depends on facts the request does not carry (a building's floor area, a chosen tariff,
 * a grid connection); `voluntary` is a step needed only to obtain an optional benefit.
 */
export const OBLIGATIONS = ['mandatory', 'conditional', 'voluntary'] as const;
export type Obligation = (typeof OBLIGATIONS)[number];

/** Capacity range in kW, both bounds inclusive; a missing bound is open. */
export interface SizeRangeKw {
  min?: number;
  max?: number;
}

/** Extra filters of one record, narrower than its entry's; a missing field means "as the entry". */
export interface Applicability {
  sectors?: Sector[];
  installation_types?: InstallationType[];
  project_size_kw?: SizeRangeKw;
}

export interface RequirementRecord {
  requirement: string;
  responsible_party: string;
  /** When it is due, as text ("before connection", "within one month of commissioning"). */
  deadline: string;
  stage: RequirementStage;
  obligation: Obligation;
  applies_to?: Applicability;
}

export interface IncentiveRecord {
  program: string;
  benefit: string;
  eligibility: string;
  /** Last day a new project can qualify (YYYY-MM-DD); after it the incentive is not offered. */
  available_until?: string;
  /** The programme no longer takes new applicants (date not curated). */
  closed_to_new_applicants?: boolean;
  applies_to?: Applicability;
}

export interface PolicyEntry {
  /** Stable slug, cited by evaluation questions. */
  id: string;
  /** Official title of the instrument. */
  title: string;
  /** "EU", an ISO 3166-1 country ("DE", "US", "CA", "ZA") or ISO 3166-2 subdivision ("US-CA", "CA-ON"). */
  jurisdiction: string;
  region: PolicyRegion;
  sector: Sector[];
  installation_types: InstallationType[];
  project_size_kw: SizeRangeKw;
  /** Date of entry into force or application (YYYY-MM-DD); for codes and standards the edition date. */
  effective_date: string;
  kind: PolicyKind;
  /** 2-5 sentences in our own words; only figures checked against the source. */
  summary: string;
  /** Aliases and terms people use for it ("NEM 3.0", "ITC"), indexed for search. */
  keywords: string[];
  /** Canonical page of the document at its official domain. */
  document_url: string;
  requirements?: RequirementRecord[];
  incentive?: IncentiveRecord;
}

/** How much of each retrieved entry an answer quotes (request field `response_options.detail_level`). */
export const DETAIL_LEVELS = ['summary', 'standard', 'detailed'] as const;
export type DetailLevel = (typeof DETAIL_LEVELS)[number];
