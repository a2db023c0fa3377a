/**
 * Which portal or tool wrote a file, from the lines above the data. Detection only labels the upload;
 * parsing always follows the content, so a file that matches no signature is still read ("generic").
 *
 * Sources, stated honestly: none of these vendors publishes a specification of its CSV export. Each
 * signature is the header as it appears in exported files shown in public repositories (named below);
 * sample fixtures in test/fixtures/vendors/ are hand-written to those headers, not real exports.
 */
import type { Manufacturer } from './types';

export interface HeadEvidence {
  /** Raw lines above the header block (metadata, `sep=`, version lines). */
  preamble: string[];
  /** Every header row, top to bottom (device names, serials, channel names, types, units). */
  headerRows: string[][];
}

interface Signature {
  manufacturer: Exclude<Manufacturer, 'generic'>;
  /** Each pattern that matches the evidence text adds its weight; 3 or more claims the file. */
  patterns: { pattern: RegExp; weight: number }[];
}

const CLAIM = 3;

const SIGNATURES: Signature[] = [
  {
    // SMA. Sunny Explorer (and SBFspot/SMAspot, which copy its layout) write `sep=;`, a
    // "Version CSV1|Tool SE|...|Decimalpoint comma" line, then rows of device names, serials, channel
    // names ("Total yield;Power" / "Gesamtertrag;Leistung"), types ("Counter;Analog") and units
    // ("dd.MM.yyyy HH:mm:ss;kWh;kW"). Inverter WebUI exports are "Version CSV3|Tool WebUI" with channel
    // names like "Metering.TotWhOut" and "GridMs.TotW (Avg)" and a units row "[Wh]", "[W]".
    // As exported by Sunny Explorer / the inverter WebUI; header as seen in public files, e.g.
    // patrickvorgers/Home-Assistant-Import-Energy-Data Datasources/SMA/Sample files (WebUI), and
    // SBFspot's CSV export code and configuration comments (Sunny Explorer layout).
    manufacturer: 'sma',
    patterns: [
      { pattern: /^Version CSV\d\|Tool (SE|WebUI|SBFspot|SMAspot|smalog)/im, weight: 4 },
      { pattern: /\t(Counter|Analog|Status)\t(Counter|Analog|Status)\b/, weight: 3 },
      { pattern: /\b(Metering|GridMs|DcMs|Operation)\.[A-Za-z]+/, weight: 3 },
      { pattern: /\b(Total yield|Gesamtertrag|Day yield|Tagesertrag)\b/i, weight: 1 },
      { pattern: /\bSN: ?\d{6,}/, weight: 1 },
      { pattern: /\b(SB|STP|SMC|SI|SBS) ?\d/, weight: 1 },
    ],
  },
  {
    // Fronius Solar.web: "Datum und Uhrzeit" / "Date and time", value columns named
    // "<channel> | <inverter>" ("Energie | Symo 12.5-3-M (2)"), "PV Produktion" / "PV production",
    // then a second row of units; semicolons and decimal commas in European locales.
    // As exported by Solar.web (Fronius); header as seen in public analysis scripts that read these
    // exports (column maps with "Energie | Symo GEN24 8.0 Plus", "PV Produktion", "PV Leistung", skipping
    // "the row with units").
    manufacturer: 'fronius',
    patterns: [
      { pattern: /\|\s*(Symo|Primo|Galvo|Eco|Tauro|Fronius|GEN24|IG Plus|Smart ?Meter|PowerMeter|Ohmpilot)/i, weight: 3 },
      { pattern: /\b(Datum und Uhrzeit|Date and time)\b/i, weight: 2 },
      { pattern: /\bPV (Produktion|production|Leistung|power)\b/i, weight: 2 },
    ],
  },
  {
    // SolarEdge monitoring portal: chart/report export with "Time" (or "Measurement Time") and
    // "System Production (Wh)" (newer: "Production (Wh)"), alongside "Consumption (Wh)",
    // "Self Consumption (Wh)", "Export (Wh)", "Import (Wh)"; US-style MM/DD/YYYY dates.
    // As exported by the SolarEdge monitoring portal; header as seen in public scripts that read these
    // exports (e.g. polars readers mapping "Measurement Time"/"Production (Wh)" to
    // "Time"/"System Production (Wh)", and an API-to-GUI header mapping naming the GUI columns).
    manufacturer: 'solaredge',
    patterns: [
      { pattern: /\bSystem Production \((W|Wh|kWh)\)/i, weight: 4 },
      { pattern: /\bSelf Consumption \((W|Wh|kWh)\)/i, weight: 2 },
      { pattern: /\bMeasurement Time\b/i, weight: 2 },
      { pattern: /(^|\t)Production \((W|Wh|kWh)\)/i, weight: 1 },
    ],
  },
  {
    // Enphase Enlighten: "Site Energy Production" and custom reports, "Date/Time,Energy Produced (Wh)"
    // (+ "Energy Consumed (Wh)", "Exported to Grid (Wh)", "Imported from Grid (Wh)"), MM/DD/YYYY[ HH:mm]
    // dates, thousands separators inside quoted values ("1,104") and a closing "Total" row.
    // As exported by Enlighten (Reports tab); header as in the sample reports of
    // patrickvorgers/Home-Assistant-Import-Energy-Data Datasources/Enphase/Sample files.
    manufacturer: 'enphase',
    patterns: [
      { pattern: /\bEnergy (Produced|Delivered) \((Wh|kWh)\)/i, weight: 4 },
      { pattern: /\b(Exported to|Imported from) Grid \((Wh|kWh)\)/i, weight: 2 },
      { pattern: /(^|\t)Date\/Time(\t|$)/i, weight: 1 },
    ],
  },
  {
    // Huawei FusionSolar: device history reports (exported as .xlsx, three title rows above the header;
    // CSV when saved from it) with "Site Name", "ManageObject", "Start Time" (summer-time rows suffixed
    // " DST"), "Active power(kW)", "Total input power(kW)", "Daily energy(kWh)", "Output reactive
    // power(kvar)", "Power factor", "Internal temperature(℃)"; yield columns "Inverter Yield(kWh)",
    // "PV Yield(kWh)". As exported by FusionSolar; header as read by public analysis scripts of such
    // reports (martavp/UEF reads "Start Time", "ManageObject", "Active power(kW)", "Total input power(kW)";
    // another keeps the column list above and strips "DST"; an importer's synonyms list the yields).
    manufacturer: 'huawei',
    patterns: [
      { pattern: /\bManageObject\b/i, weight: 4 },
      { pattern: /\b(Total input power|Active power|Output reactive power)\(k(W|var)\)/i, weight: 2 },
      { pattern: /\b(Inverter|PV) Yield\(kWh\)/i, weight: 2 },
      { pattern: /\bStart Time\b/i, weight: 1 },
      { pattern: /\bDaily energy\(kWh\)/i, weight: 1 },
    ],
  },
];

/** The best-scoring vendor, or "generic" when none reaches the claim threshold. */
export function detectManufacturer(evidence: HeadEvidence): Manufacturer {
  // Cells joined by tabs, rows by newlines: patterns can anchor on cell boundaries without caring
  // which delimiter the file used.
  const text = [...evidence.preamble, ...evidence.headerRows.map((row) => row.map((c) => c.trim()).join('\t'))].join('\n');
  let best: Manufacturer = 'generic';
  let bestScore = CLAIM - 1;
  for (const signature of SIGNATURES) {
    let score = 0;
    for (const { pattern, weight } of signature.patterns) if (pattern.test(text)) score += weight;
    if (score > bestScore) {
      best = signature.manufacturer;
      bestScore = score;
    }
  }
  return best;
}
