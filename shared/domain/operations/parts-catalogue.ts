/**
 * Parts catalogue of the Decide stage (ARCHITECTURE 7): typical parts, services and indicative costs per asset
 * type, per component OEM and per maintenance type, kept as data. `bom.ts` turns it into a bill of materials.
 *
 * About the figures: every cost is INDICATIVE, in US dollars (CATALOGUE_CURRENCY, held as integer cents), and
 * none is a quote.
 * Each group's `source` says where the scope and the order of magnitude come from; the figures are rounded
 * estimates at the level of those public sources, not transcriptions of one price list, so treat them as
 * planning values and replace them with the operator's contract prices where known. Part numbers are this catalogue's own SKUs (prefix = OEM or asset type), not manufacturers'
 * order numbers, which differ by model, revision and region; descriptions name the OEM product family.
 *
 * Quantity rules (evaluated in `bom.ts`, capacity in kW as on the asset):
 * - `fixed`: `quantity` per BOM (per OEM present, for an OEM group);
 * - `per_kw`: ceil(capacity x `quantity_per_kw`);
 * - `per_n_kw`: ceil(capacity / `n_kw`) x `quantity`;
 * - `per_component`: `quantity` x the number of listed components (of that OEM, for an OEM group).
 */
import type { MaintenanceType } from './schedules';

/** ISO 4217 code of every catalogue price. */
export const CATALOGUE_CURRENCY = 'USD';

export type QuantityRule =
  | { per: 'fixed'; quantity: number }
  | { per: 'per_kw'; quantity_per_kw: number }
  | { per: 'per_n_kw'; n_kw: number; quantity: number }
  | { per: 'per_component'; quantity: number };

export interface CataloguePart {
  part_number: string;
  description: string;
  /** USD cents per unit: integers, so BOM totals are exact. */
  unit_cost_cents: number;
  quantity: QuantityRule;
  /** Maintenance types whose BOM lists the part (an emergency BOM also takes every corrective part: bom.ts). */
  maintenance_types: readonly MaintenanceType[];
  /** Model families of its OEM group the part fits (`ModelFamily.key`); any model when absent. */
  families?: readonly string[];
}

/** A product family of an OEM, recognised in a component's model name or order code. */
export interface ModelFamily {
  key: string;
  /** Matched against the model as written ("Sunny Boy 5.0", "SB5.0-1AV-41"). */
  pattern: RegExp;
}

export interface PartGroup {
  /** Where the scope and the indicative figures come from. */
  source: string;
  parts: readonly CataloguePart[];
}

export interface OemParts extends PartGroup {
  oem: string;
  /** Families whose parts differ; a component whose model names none of them takes every part of the group. */
  families?: readonly ModelFamily[];
  /** Lower-case letters and digits only (see `oemKey`): the whole name or its first word must equal one. */
  aliases: readonly string[];
}

export const ASSET_TYPES = ['inverter', 'pv_array', 'bess', 'wind_turbine', 'transformer', 'meter'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];
/** `generic` is the fallback for asset types the catalogue does not know. */
export type CatalogueKey = AssetType | 'generic';

export interface AssetTypeParts {
  key: CatalogueKey;
  /** Normalised spellings (see `assetTypeKey`) that select this entry, the key included. */
  aliases: readonly string[];
  /** Parts for any asset of the type, whatever its OEM. */
  common: PartGroup;
  /** OEM-specific parts, used for the components whose OEM matches. */
  oems: readonly OemParts[];
  /** Parts for components of an OEM not listed here, or for the whole asset when it lists no components. */
  unbranded: PartGroup;
  /** Other types whose OEM groups also apply to this type's components (a PV array lists its inverters). */
  oems_from?: readonly AssetType[];
}

const fixed = (quantity = 1): QuantityRule => ({ per: 'fixed', quantity });
const perKw = (quantity_per_kw: number): QuantityRule => ({ per: 'per_kw', quantity_per_kw });
const perNKw = (n_kw: number, quantity = 1): QuantityRule => ({ per: 'per_n_kw', n_kw, quantity });
const perComponent = (quantity = 1): QuantityRule => ({ per: 'per_component', quantity });

const PM: readonly MaintenanceType[] = ['preventive'];
const CM: readonly MaintenanceType[] = ['corrective'];
const EM: readonly MaintenanceType[] = ['emergency'];
const PM_CM: readonly MaintenanceType[] = ['preventive', 'corrective'];

const part = (part_number: string, description: string, unit_cost_cents: number, quantity: QuantityRule, maintenance_types: readonly MaintenanceType[], families?: readonly string[]): CataloguePart => ({
  part_number,
  description,
  unit_cost_cents,
  quantity,
  maintenance_types,
  ...(families ? { families } : {}),
});

const NO_PARTS: PartGroup = { source: 'none: no OEM-neutral parts beyond the common ones', parts: [] };

/** Technician labour, one rate everywhere (indicative US field-service rate 2023-2024). */
const LABOUR_HOUR_CENTS = 9_500;
const WIND_LABOUR_HOUR_CENTS = 11_000;

/** Call-out and expediting, added to every emergency BOM (bom.ts). */
export const EMERGENCY_SERVICE_PARTS: PartGroup = {
  source: 'Indicative, public US field-service rate cards and courier tariffs of 2023-2024',
  parts: [
    part('SVC-EMG-CALLOUT', 'Emergency call-out, on site within 4 h at any hour', 45_000, fixed(), EM),
    part('SVC-EMG-EXPEDITE', 'Expedited next-day freight of parts', 16_500, fixed(), EM),
  ],
};

// ---------------------------------------------------------------------------------------------------------
// Inverters

const PV_OM_SCOPE = 'Scope after the NREL/Sandia/SunSpec PV O&M cost model (Walker et al. 2020, NREL/TP-5C00-74840) and Best Practices in PV O&M, 2nd ed. (NREL/TP-7A40-67553, 2016)';

const INVERTER: AssetTypeParts = {
  key: 'inverter',
  aliases: ['inverter', 'inverters', 'pv_inverter', 'solar_inverter', 'string_inverter', 'central_inverter', 'hybrid_inverter', 'microinverter', 'micro_inverter', 'pcs', 'power_conversion_system'],
  common: {
    source: `${PV_OM_SCOPE}; indicative costs, public distributor price lists of 2023-2024`,
    parts: [
      part('INV-PM-LAB', 'Inverter preventive service labour: inspection, cleaning, re-torque, firmware (hours)', LABOUR_HOUR_CENTS, perComponent(2), PM),
      part('INV-IR-SCAN', 'Infrared thermography of inverter AC/DC terminations', 18_500, fixed(), PM),
      part('INV-CLEAN-KIT', 'Heatsink and vent cleaning consumables kit', 2_475, perComponent(), PM),
      part('INV-TERM-KIT', 'Termination consumables per 50 kW: lugs, torque-seal paint, cable ties', 1_835, perNKw(50), PM),
      part('INV-CM-LAB', 'Inverter fault diagnosis and repair labour (hours)', LABOUR_HOUR_CENTS, perComponent(4), CM),
      part('INV-DC-FUSE', 'DC string fuse, gPV 15 A 1000/1500 V, one per 25 kW', 1_260, perNKw(25), CM),
    ],
  },
  oems: [
    {
      oem: 'SMA',
      aliases: ['sma', 'smasolar', 'smasolartechnology', 'smaamerica'],
      source: 'Indicative, public SMA distributor price lists of 2023-2024 (Sunny Boy, Sunny Tripower, Sunny Highpower, Sunny Central spares)',
      // SMA order codes: SB (Sunny Boy), STP (Sunny Tripower), SHP (Sunny Highpower), SC (Sunny Central).
      families: [
        { key: 'sunny_boy', pattern: /sunny\s*boy|^\s*sb\s*\d/i },
        { key: 'sunny_tripower', pattern: /tripower|^\s*stp\s*\d/i },
        { key: 'sunny_highpower', pattern: /highpower|^\s*shp\s*\d/i },
        { key: 'sunny_central', pattern: /sunny\s*central|^\s*sc\s*\d/i },
      ],
      parts: [
        part('SMA-FILTER-AIR', 'SMA Sunny Highpower/Central air inlet filter set', 4_650, perComponent(), PM, ['sunny_highpower', 'sunny_central']),
        part('SMA-FANKIT-STP', 'SMA Sunny Tripower/Highpower replacement fan kit', 21_500, perComponent(), CM, ['sunny_tripower', 'sunny_highpower']),
        // Residential Sunny Boys are cooled by convection: no fan kit; their DC inputs are SUNCLIX plugs.
        part('SMA-SUNCLIX-SB', 'SMA SUNCLIX DC connector pair for Sunny Boy inputs, two per inverter', 1_450, perComponent(2), CM, ['sunny_boy']),
        part('SMA-SPD-DC-T2', 'SMA plug-in DC surge arrester, type II (Sunny Tripower/Highpower)', 11_990, perComponent(), CM, ['sunny_tripower', 'sunny_highpower']),
        part('SMA-COMM-MOD', 'SMA communication module (Speedwire/Webconnect), replacement', 32_900, perComponent(), CM),
      ],
    },
    {
      oem: 'Huawei',
      aliases: ['huawei', 'huaweitechnologies', 'huaweidigitalpower', 'huaweifusionsolar'],
      source: 'Indicative, public Huawei FusionSolar distributor price lists of 2023-2024 (SUN2000 spares)',
      parts: [
        part('HUA-FAN-SUN2000', 'Huawei SUN2000 external fan assembly', 16_500, perComponent(), CM),
        part('HUA-DONGLE-SDONGLE', 'Huawei Smart Dongle (WLAN-FE/4G), replacement', 15_900, perComponent(), CM),
        part('HUA-CONN-MC4', 'Staubli MC4 DC connector pair, the type SUN2000 manuals require, one per 20 kW', 1_190, perNKw(20), PM_CM),
      ],
    },
    {
      oem: 'Fronius',
      aliases: ['fronius', 'froniusinternational', 'froniususa'],
      source: 'Indicative, public Fronius distributor price lists of 2023-2024 (Symo, Eco, Tauro spares)',
      families: [
        { key: 'tauro', pattern: /tauro/i },
        { key: 'symo_eco_primo', pattern: /symo|\beco\b|primo/i },
      ],
      parts: [
        part('FRO-FILTER-TAURO', 'Fronius Tauro air filter set', 3_900, perComponent(), PM, ['tauro']),
        part('FRO-FAN-SYMO', 'Fronius Symo/Eco/Primo replacement fan', 12_900, perComponent(), CM, ['symo_eco_primo']),
        part('FRO-DATAMGR', 'Fronius Datamanager 2.0 plug-in card', 29_500, perComponent(), CM),
      ],
    },
    {
      oem: 'SolarEdge',
      aliases: ['solaredge', 'solaredgetechnologies'],
      source: 'Indicative, public SolarEdge distributor price lists of 2023-2024 (three-phase inverters, power optimisers)',
      parts: [
        part('SEDG-FAN-3PH', 'SolarEdge three-phase inverter fan kit', 9_800, perComponent(), CM),
        part('SEDG-OPT-P', 'SolarEdge P-series power optimiser, spare, one per 20 kW', 7_200, perNKw(20), CM),
      ],
    },
    {
      oem: 'Enphase',
      aliases: ['enphase', 'enphaseenergy'],
      source: 'Indicative, public Enphase distributor price lists of 2023-2024 (IQ8 microinverters, IQ Cable)',
      parts: [
        part('ENPH-IQ8PLUS', 'Enphase IQ8+ microinverter, spare, one per 10 kW', 16_900, perNKw(10), CM),
        part('ENPH-IQCABLE-KIT', 'Enphase IQ Cable sealing caps, terminators and disconnect tool kit', 2_850, fixed(), CM),
      ],
    },
    {
      oem: 'Sungrow',
      aliases: ['sungrow', 'sungrowpower', 'sungrowpowersupply'],
      source: 'Indicative, public Sungrow distributor price lists of 2023-2024 (SG string inverter spares)',
      parts: [
        part('SUNG-FAN-SG', 'Sungrow SG-series fan assembly', 15_500, perComponent(), CM),
        part('SUNG-SPD-DC', 'Sungrow DC surge protection module', 10_400, perComponent(), CM),
      ],
    },
  ],
  unbranded: {
    source: 'Indicative, public distributor price lists of 2023-2024 (generic string-inverter spares)',
    parts: [
      part('INV-FILTER-GEN', 'Air inlet filter mat, cut to size', 1_890, perComponent(), PM),
      part('INV-FAN-GEN', 'Cooling fan assembly, like-for-like replacement', 14_800, perComponent(), CM),
      part('INV-SPD-GEN', 'DC surge protection cartridge, type 2', 8_940, perComponent(), CM),
      part('INV-BOARD-GEN', 'Control/communication board, like-for-like replacement', 68_000, perComponent(), CM),
    ],
  },
};

// ---------------------------------------------------------------------------------------------------------
// PV arrays: components are usually the array's inverters, so inverter OEM groups apply (oems_from).

const PV_ARRAY: AssetTypeParts = {
  key: 'pv_array',
  aliases: ['pv_array', 'pv_arrays', 'solar_panel', 'solar_panels', 'pv_module', 'pv_modules', 'solar_module', 'solar', 'pv', 'solar_pv', 'pv_system', 'solar_array', 'solar_farm', 'pv_plant', 'solar_plant'],
  common: {
    source: `${PV_OM_SCOPE}; indicative costs (cleaning, IV tracing, thermography, modules), public price lists of 2023-2024`,
    parts: [
      part('PV-CLEAN-KW', 'Module washing with deionised water (per kWdc)', 450, perKw(1), PM),
      part('PV-IV-TRACE', 'IV-curve trace per string (one string per 10 kWdc)', 1_800, perNKw(10), PM),
      part('PV-IR-AERIAL', 'Aerial thermography of the array (per 100 kWdc)', 12_000, perNKw(100), PM),
      part('PV-PM-LAB', 'Array inspection labour: racking, cabling, vegetation (hours, 1 per 50 kWdc)', LABOUR_HOUR_CENTS, perNKw(50), PM),
      part('PV-CM-LAB', 'Array fault finding and repair labour (hours, 1 per 25 kWdc)', LABOUR_HOUR_CENTS, perNKw(25), CM),
      part('PV-MODULE-400', 'PV module, 400 W class, like-for-like replacement (one per 50 kWdc)', 16_500, perNKw(50), CM),
      part('PV-MC4-PAIR', 'PV connector pair, MC4-compatible (one per 10 kWdc)', 435, perNKw(10), CM),
      part('PV-CABLE-6MM', 'PV cable 6 mm2 (10 AWG) H1Z2Z2-K/PV Wire, metre (one per 5 kWdc)', 185, perNKw(5), CM),
    ],
  },
  oems: [],
  unbranded: NO_PARTS,
  oems_from: ['inverter'],
};

// ---------------------------------------------------------------------------------------------------------
// Battery energy storage: components are battery units or their power conversion systems.

const BESS: AssetTypeParts = {
  key: 'bess',
  aliases: ['bess', 'battery', 'batteries', 'battery_storage', 'battery_energy_storage', 'battery_energy_storage_system', 'energy_storage', 'ess', 'storage'],
  common: {
    source: 'Scope after Best Practices for O&M of PV and Energy Storage Systems, 3rd ed. (NREL/TP-7A40-73822, 2018); O&M order of magnitude cross-checked with Lazard LCOS (v7.0 2021 to v9.0 2024); indicative costs, public price lists of 2023-2024',
    parts: [
      part('BESS-PM-LAB', 'BESS inspection labour: BMS logs, HVAC, enclosure, cell balance (hours, 2 per 100 kW)', LABOUR_HOUR_CENTS, perNKw(100, 2), PM),
      part('BESS-IR-SCAN', 'Thermography of racks, busbars and PCS terminations', 22_000, fixed(), PM),
      part('BESS-HVAC-FILTER', 'Enclosure HVAC filter set (one per 500 kW)', 4_860, perNKw(500), PM),
      part('BESS-FIRE-INSP', 'Fire detection and suppression inspection (NFPA 855/72 scope)', 35_000, fixed(), PM),
      part('BESS-CM-LAB', 'BESS fault diagnosis and repair labour (hours, 4 per 100 kW)', LABOUR_HOUR_CENTS, perNKw(100, 4), CM),
      part('BESS-CONTACTOR', 'DC main contactor, rack/string', 26_000, perComponent(), CM),
      part('BESS-FUSE-DC', 'DC fuse, battery-rated high voltage', 7_490, perComponent(2), CM),
    ],
  },
  oems: [
    {
      oem: 'Tesla',
      aliases: ['tesla', 'teslaenergy', 'teslamotors'],
      source: 'Indicative, public installer price lists of 2023-2024 (Powerwall, Backup Gateway); Megapack spares are Tesla-serviced, not listed',
      parts: [
        part('TSLA-THERMAL-KIT', 'Tesla Powerwall/Megapack thermal system inspection and coolant top-up kit', 8_500, perComponent(), PM),
        part('TSLA-GATEWAY', 'Tesla Backup Gateway, replacement', 115_000, fixed(), CM),
      ],
    },
    {
      oem: 'BYD',
      aliases: ['byd', 'bydenergy', 'bydcompany', 'buildyourdreams'],
      source: 'Indicative, public BYD Battery-Box distributor price lists of 2023-2024',
      parts: [
        part('BYD-HVM-MODULE', 'BYD Battery-Box Premium HVM battery module 2.76 kWh', 129_000, perComponent(), CM),
        part('BYD-BCU', 'BYD Battery-Box Premium battery control unit (BCU)', 52_000, perComponent(), CM),
      ],
    },
    {
      oem: 'LG',
      aliases: ['lg', 'lgchem', 'lgenergysolution', 'lges', 'lgelectronics'],
      source: 'Indicative, public LG RESU distributor price lists of 2023-2024',
      parts: [
        part('LG-RESU-DCCABLE', 'LG RESU DC power and communication cable set', 9_500, perComponent(), CM),
        part('LG-RESU10H-UNIT', 'LG RESU10H Prime battery unit, like-for-like swap', 520_000, perComponent(), CM),
      ],
    },
  ],
  unbranded: {
    source: 'Indicative, public LFP module and BMS distributor price lists of 2023-2024',
    parts: [
      part('BESS-MODULE-LFP', 'LFP battery module, like-for-like replacement (one per 100 kW)', 145_000, perNKw(100), CM),
      part('BESS-BMS-SLAVE', 'BMS slave (module monitoring) board', 38_000, perComponent(), CM),
    ],
  },
  oems_from: ['inverter'],
};

// ---------------------------------------------------------------------------------------------------------
// Wind turbines: the OEM decides the drive train (geared or direct drive) and the pitch system.

const WIND_TURBINE: AssetTypeParts = {
  key: 'wind_turbine',
  aliases: ['wind_turbine', 'wind_turbines', 'wind', 'wtg', 'turbine', 'wind_farm', 'wind_generator'],
  common: {
    source: 'Scope after typical annual service programmes; OpEx order of magnitude cross-checked with NREL Cost of Wind Energy Review (Stehly et al., 2022/2023 editions); indicative costs, public price lists of 2023-2024',
    parts: [
      part('WTG-PM-LAB', 'Turbine service labour, two-person climb team (hours, 24 per MW)', WIND_LABOUR_HOUR_CENTS, perNKw(1000, 24), PM),
      part('WTG-GREASE', 'Bearing grease cartridge 400 g, main/pitch/yaw bearings (6 per 500 kW)', 1_480, perNKw(500, 6), PM),
      part('WTG-SAFETY-INSP', 'Fall-arrest equipment and service lift inspection', 45_000, fixed(), PM),
      part('WTG-TORQUE-HIRE', 'Hydraulic bolt-torque tool hire, one day', 38_000, fixed(), PM),
      part('WTG-OIL-SAMPLE', 'Drive-train oil sample analysis', 8_500, perComponent(), PM),
      part('WTG-CM-LAB', 'Turbine fault finding and repair labour (hours, 16 per MW)', WIND_LABOUR_HOUR_CENTS, perNKw(1000, 16), CM),
      part('WTG-EMG-CLIMB', 'Additional climb team for an emergency, one day', 176_000, fixed(), EM),
    ],
  },
  oems: [
    {
      oem: 'Vestas',
      aliases: ['vestas', 'vestaswindsystems'],
      source: 'Indicative, public aftermarket price lists of 2023-2024 (Vestas V-series spares)',
      parts: [
        part('VES-GBX-FILTER', 'Vestas V-series gearbox oil filter element set', 64_000, perComponent(), PM),
        part('VES-PITCH-ACC', 'Vestas hydraulic pitch accumulator, one per blade', 125_000, perComponent(3), CM),
      ],
    },
    {
      oem: 'Siemens Gamesa',
      aliases: ['siemensgamesa', 'siemensgamesarenewableenergy', 'sgre', 'gamesa', 'siemens'],
      source: 'Indicative, public aftermarket price lists of 2023-2024 (Siemens Gamesa direct-drive spares)',
      parts: [
        part('SGRE-GEN-FILTER', 'Siemens Gamesa direct-drive generator cooling air filter set', 78_000, perComponent(), PM),
        part('SGRE-PITCH-VALVE', 'Siemens Gamesa pitch proportional valve, one per blade', 190_000, perComponent(3), CM),
      ],
    },
    {
      oem: 'GE',
      aliases: ['ge', 'gevernova', 'generalelectric', 'gerenewableenergy'],
      source: 'Indicative, public aftermarket price lists of 2023-2024 (GE 1.x/2.x platform spares)',
      parts: [
        part('GE-GBX-FILTER', 'GE 1.x/2.x gearbox oil filter element', 56_000, perComponent(), PM),
        part('GE-PITCH-BATT', 'GE electric pitch backup battery pack, one per blade', 69_000, perComponent(3), CM),
      ],
    },
  ],
  unbranded: {
    source: 'Indicative, public aftermarket price lists of 2023-2024 (generic geared-turbine spares)',
    parts: [
      part('WTG-GBX-FILTER-GEN', 'Gearbox oil filter element, inline and offline', 31_000, perComponent(2), PM),
      part('WTG-YAW-PADS', 'Yaw brake pad set', 165_000, perComponent(), CM),
      part('WTG-SLIPRING-BRUSH', 'Slip-ring brush set', 42_000, perComponent(), CM),
    ],
  },
};

// ---------------------------------------------------------------------------------------------------------
// Transformers (capacity read as kVA). The OEM rarely changes the parts, so there are no OEM groups.

const TRANSFORMER: AssetTypeParts = {
  key: 'transformer',
  aliases: ['transformer', 'transformers', 'xfmr', 'step_up_transformer', 'gsu', 'pad_mount_transformer', 'substation_transformer'],
  common: {
    source: 'Scope after IEEE C57.104 (dissolved-gas analysis) and IEEE C57.106 (oil acceptance and maintenance); indicative costs, public laboratory and distributor price lists of 2023-2024',
    parts: [
      part('XFMR-DGA', 'Dissolved-gas analysis of the insulating oil (IEEE C57.104)', 9_500, fixed(), PM_CM),
      part('XFMR-OIL-QUAL', 'Oil quality tests: moisture, dielectric breakdown, acidity, IFT (IEEE C57.106)', 16_500, fixed(), PM),
      part('XFMR-IR-SCAN', 'Infrared thermography of bushings and connections', 18_500, fixed(), PM),
      part('XFMR-SILICA', 'Breather silica-gel desiccant, 1 kg (one per 1000 kVA)', 2_140, perNKw(1000), PM),
      part('XFMR-PM-LAB', 'Transformer inspection labour (hours, 2 per 1000 kVA)', LABOUR_HOUR_CENTS, perNKw(1000, 2), PM),
      part('XFMR-CM-LAB', 'Transformer repair labour (hours, 6 per 1000 kVA)', LABOUR_HOUR_CENTS, perNKw(1000, 6), CM),
      part('XFMR-GASKET', 'Bushing and cover gasket set, nitrile', 14_500, fixed(), CM),
      part('XFMR-OIL-L', 'Mineral insulating oil (ASTM D3487 Type II / IEC 60296), litre (one per 25 kVA)', 310, perNKw(25), CM),
      part('XFMR-HV-FUSE', 'HV current-limiting fuse, bay-o-net, one per phase', 14_850, fixed(3), CM),
    ],
  },
  oems: [],
  unbranded: NO_PARTS,
};

// ---------------------------------------------------------------------------------------------------------
// Meters

const METER: AssetTypeParts = {
  key: 'meter',
  aliases: ['meter', 'meters', 'energy_meter', 'revenue_meter', 'smart_meter', 'power_meter', 'kwh_meter'],
  common: {
    source: 'Scope after ANSI C12.1/C12.20 accuracy testing; indicative costs, public metering distributor price lists of 2023-2024',
    parts: [
      part('MTR-ACC-TEST', 'On-site accuracy test against a reference standard (ANSI C12.20 class 0.2/0.5)', 14_000, perComponent(), PM),
      part('MTR-PM-LAB', 'Meter inspection labour (hours)', LABOUR_HOUR_CENTS, perComponent(), PM),
      part('MTR-SEALS', 'Tamper seals, pack of 10', 1_290, fixed(), PM_CM),
      part('MTR-CM-LAB', 'Meter fault finding and replacement labour (hours)', LABOUR_HOUR_CENTS, perComponent(2), CM),
      part('MTR-CT-SPLIT', 'Split-core current transformer, revenue grade, one per phase', 8_900, perComponent(3), CM),
      part('MTR-COMM-MOD', 'Meter communication module (cellular or RS-485)', 18_500, perComponent(), CM),
    ],
  },
  oems: [],
  unbranded: NO_PARTS,
};

// ---------------------------------------------------------------------------------------------------------
// Fallback for types not in the catalogue: labour, thermography and an electrical spares allowance.

export const GENERIC_PARTS: AssetTypeParts = {
  key: 'generic',
  aliases: [],
  common: {
    source: 'Indicative, public US field-service rate cards and distributor price lists of 2023-2024',
    parts: [
      part('GEN-PM-LAB', 'Technician labour, inspection and service (hours, 2 per 100 kW)', LABOUR_HOUR_CENTS, perNKw(100, 2), PM),
      part('GEN-IR-SCAN', 'Infrared thermography of electrical terminations', 18_500, fixed(), PM),
      part('GEN-CONSUMABLES', 'Cleaning and inspection consumables kit', 3_850, fixed(), PM_CM),
      part('GEN-CM-LAB', 'Technician labour, fault finding and repair (hours, 4 per 100 kW)', LABOUR_HOUR_CENTS, perNKw(100, 4), CM),
      part('GEN-SPARES', 'Electrical spares allowance: fuses, terminals, cable glands', 12_500, fixed(), CM),
    ],
  },
  oems: [],
  unbranded: NO_PARTS,
};

export const PARTS_CATALOGUE: Readonly<Record<AssetType, AssetTypeParts>> = {
  inverter: INVERTER,
  pv_array: PV_ARRAY,
  bess: BESS,
  wind_turbine: WIND_TURBINE,
  transformer: TRANSFORMER,
  meter: METER,
};

/** "Solar Panel", "solar-panel" and " SOLAR_PANEL " are all `solar_panel`. */
export const assetTypeKey = (type: string): string =>
  type
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

const BY_ALIAS = new Map<string, AssetTypeParts>(Object.values(PARTS_CATALOGUE).flatMap((entry) => entry.aliases.map((alias) => [alias, entry] as const)));

/** The catalogue entry of an asset type, case-insensitive with aliases; GENERIC_PARTS when unknown. */
export const catalogueFor = (type: string): AssetTypeParts => BY_ALIAS.get(assetTypeKey(type)) ?? GENERIC_PARTS;

/** Words of an OEM name, lower case, accents dropped: "SMA Solar Technology AG" -> [sma, solar, technology, ag]. */
const oemWords = (oem: string): string[] =>
  oem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Compact form of an OEM name, the form of `OemParts.aliases`: "Solar Edge" -> "solaredge". */
export const oemKey = (oem: string): string => oemWords(oem).join('');

/**
 * The OEM group for a component's OEM, looked up in the entry and then in its `oems_from` types: the
 * whole name or its first word must equal an alias ("SMA Solar Technology AG" is SMA; "Smartwatt" is not).
 */
export function oemPartsFor(entry: AssetTypeParts, oem: string): OemParts | undefined {
  const words = oemWords(oem);
  if (words.length === 0) return undefined;
  const whole = words.join('');
  const groups = [...entry.oems, ...(entry.oems_from ?? []).flatMap((t) => PARTS_CATALOGUE[t].oems)];
  return groups.find((g) => g.aliases.includes(whole)) ?? groups.find((g) => g.aliases.includes(words[0]));
}

/** The family of a model within an OEM group ('' when the group has none or the model names none of them). */
export function modelFamilyOf(group: PartGroup, model: string): string {
  const families = 'families' in group ? (group as OemParts).families : undefined;
  return families?.find((f) => f.pattern.test(model))?.key ?? '';
}

/** Whether a part fits a component of the family `family` ('' = unknown: every part of the group fits). */
export const partFitsFamily = (part: CataloguePart, family: string): boolean => !part.families || family === '' || part.families.includes(family);
