import { generateBom, InvalidBomRequest, quantityOf, type AssetComponent, type Bom, type BomAsset } from '../../../shared/domain/operations/bom';
import {
  ASSET_TYPES,
  catalogueFor,
  EMERGENCY_SERVICE_PARTS,
  GENERIC_PARTS,
  oemPartsFor,
  PARTS_CATALOGUE,
  type AssetTypeParts,
  type PartGroup,
} from '../../../shared/domain/operations/parts-catalogue';
import type { MaintenanceType } from '../../../shared/domain/operations/schedules';

const component = (oem: string, serial = `SN-${oem}`): AssetComponent => ({ oem, model: 'model', serial });
const asset = (type: string, capacity_kw: number, oems: string[] = []): BomAsset => ({ asset_id: 'asset-1', type, capacity_kw, components: oems.map((o, i) => component(o, `SN-${i}`)) });
const bom = (a: BomAsset, maintenanceType: MaintenanceType) => generateBom({ asset: a, maintenanceType });
const lines = (b: Bom) => b.items.map((i) => [i.part_number, i.quantity, i.unit_cost, i.total_cost]);
const partNumbers = (b: Bom) => b.items.map((i) => i.part_number);
/** What a naive implementation would do: add the dollar figures in floating point. */
const dollarSum = (b: Bom) => b.items.reduce((sum, i) => sum + i.total_cost, 0);

describe('bill of materials from the catalogue', () => {
  it('prices a 100 kW SMA inverter preventive job: common parts on the asset, SMA parts on its one unit', () => {
    const result = bom(asset('inverter', 100, ['SMA']), 'preventive');

    expect(lines(result)).toEqual([
      ['INV-PM-LAB', 2, 95, 190],
      ['INV-IR-SCAN', 1, 185, 185],
      ['INV-CLEAN-KIT', 1, 24.75, 24.75],
      ['INV-TERM-KIT', 2, 18.35, 36.7], // one per 50 kW
      ['SMA-FILTER-AIR', 1, 46.5, 46.5],
    ]);
    expect(result.total_cost_cents).toBe(48_295);
    expect(result.total_cost).toBe(482.95);
    expect(result.items.every((i) => Number.isInteger(i.quantity))).toBe(true);
  });

  it('adds the totals in cents, exact to the cent where adding dollars is not', () => {
    // 100 kW of inverters: one SMA and one Huawei unit, 50 kW each.
    const result = bom(asset('inverter', 100, ['SMA Solar Technology AG', 'HUAWEI']), 'preventive');

    expect(dollarSum(result)).not.toBe(733.4); // 733.4000000000001: the trap this test is about
    expect(result.total_cost).toBe(733.4);
    expect(result.total_cost_cents).toBe(73_340);
    expect(result.total_cost_cents).toBe(result.items.reduce((sum, i) => sum + Math.round(i.total_cost * 100), 0));
  });

  it('computes each line in cents: 50 x $18.35 is $917.50, not 917.5000000000001', () => {
    const result = bom(asset('inverter', 2500), 'preventive');

    const term = result.items.find((i) => i.part_number === 'INV-TERM-KIT');
    expect(18.35 * 50).not.toBe(917.5);
    expect(term).toEqual(expect.objectContaining({ quantity: 50, unit_cost: 18.35, total_cost: 917.5 }));
  });

  it('splits the capacity between OEM groups by their share of the components', () => {
    // Huawei connectors are one per 20 kW: 100 kW of Huawei needs 5, a Huawei unit holding half of 100 kW needs 3.
    const huaweiOnly = bom(asset('inverter', 100, ['Huawei']), 'preventive');
    const mixed = bom(asset('inverter', 100, ['SMA', 'Huawei']), 'preventive');

    expect(huaweiOnly.items.find((i) => i.part_number === 'HUA-CONN-MC4')?.quantity).toBe(5);
    expect(mixed.items.find((i) => i.part_number === 'HUA-CONN-MC4')?.quantity).toBe(3);
    expect(mixed.items.find((i) => i.part_number === 'INV-PM-LAB')?.quantity).toBe(4); // 2 h per unit, 2 units
  });

  it('counts per-component parts on the components of each OEM', () => {
    const result = bom(asset('inverter', 150, ['SMA', 'SMA', 'Fronius']), 'corrective');

    expect(result.items.find((i) => i.part_number === 'SMA-FANKIT-STP')?.quantity).toBe(2);
    expect(result.items.find((i) => i.part_number === 'FRO-FAN-SYMO')?.quantity).toBe(1);
    expect(result.items.find((i) => i.part_number === 'INV-CM-LAB')?.quantity).toBe(12); // 4 h x 3 units
  });

  it('uses the unbranded parts for an OEM the catalogue does not know, and for an asset listing no components', () => {
    const unknownOem = bom(asset('inverter', 100, ['Acme Power']), 'preventive');
    const noComponents = bom({ asset_id: 'a', type: 'inverter', capacity_kw: 100 }, 'preventive');

    expect(partNumbers(unknownOem)).toEqual(['INV-PM-LAB', 'INV-IR-SCAN', 'INV-CLEAN-KIT', 'INV-TERM-KIT', 'INV-FILTER-GEN']);
    expect(lines(noComponents)).toEqual(lines(unknownOem));
    expect(noComponents.total_cost).toBe(455.35);
  });

  it('falls back to the generic parts for an asset type the catalogue does not know', () => {
    const result = bom(asset('Flywheel', 100), 'corrective');

    expect(lines(result)).toEqual([
      ['GEN-CONSUMABLES', 1, 38.5, 38.5],
      ['GEN-CM-LAB', 4, 95, 380], // 4 h per 100 kW
      ['GEN-SPARES', 1, 125, 125],
    ]);
    expect(result.total_cost).toBe(543.5);
  });

  it('gives an emergency every corrective part plus call-out and expediting', () => {
    const a = asset('inverter', 100, ['SMA']);
    const corrective = bom(a, 'corrective');
    const emergency = bom(a, 'emergency');

    expect(partNumbers(emergency)).toEqual([...partNumbers(corrective), 'SVC-EMG-CALLOUT', 'SVC-EMG-EXPEDITE']);
    expect(emergency.total_cost_cents - corrective.total_cost_cents).toBe(45_000 + 16_500);
    // The model ('model') names no SMA family, so every SMA corrective part is listed.
    expect(corrective.total_cost).toBe(1123.3);
    expect(emergency.total_cost).toBe(1738.3);
  });

  it('says every BOM is indicative and priced in US dollars', () => {
    expect(bom(asset('inverter', 5, ['SMA']), 'corrective')).toMatchObject({ indicative: true, currency: 'USD' });
    expect(bom(asset('unknown thing', 5), 'preventive')).toMatchObject({ indicative: true, currency: 'USD' });
  });

  it("picks the parts of the component's model family: a Sunny Boy gets no Sunny Tripower fan kit", () => {
    const withModel = (model: string): BomAsset => ({ asset_id: 'a', type: 'inverter', capacity_kw: 5, components: [{ oem: 'SMA Solar Technology AG', model, serial: 'S1' }] });

    const sunnyBoy = partNumbers(bom(withModel('Sunny Boy 5.0'), 'corrective'));
    const orderCode = partNumbers(bom(withModel('SB5.0-1AV-41'), 'corrective'));
    const tripower = partNumbers(bom(withModel('Sunny Tripower 10.0'), 'corrective'));

    expect(sunnyBoy).toEqual(['INV-CM-LAB', 'INV-DC-FUSE', 'SMA-SUNCLIX-SB', 'SMA-COMM-MOD']);
    expect(orderCode).toEqual(sunnyBoy);
    expect(tripower).toEqual(['INV-CM-LAB', 'INV-DC-FUSE', 'SMA-FANKIT-STP', 'SMA-SPD-DC-T2', 'SMA-COMM-MOD']);
    expect(partNumbers(bom(withModel('STP 25000TL-30'), 'corrective'))).toEqual(tripower);
    // Preventive: the Highpower/Central air filter is not a Sunny Boy part.
    expect(partNumbers(bom(withModel('Sunny Boy 5.0'), 'preventive'))).not.toContain('SMA-FILTER-AIR');
    expect(partNumbers(bom(withModel('Sunny Highpower PEAK3'), 'preventive'))).toContain('SMA-FILTER-AIR');
  });

  it('lists a part two families of one OEM share on one line', () => {
    const mixed: BomAsset = {
      asset_id: 'a',
      type: 'inverter',
      capacity_kw: 30,
      components: [
        { oem: 'SMA', model: 'Sunny Boy 5.0', serial: 'S1' },
        { oem: 'SMA', model: 'Sunny Tripower 25000TL', serial: 'S2' },
      ],
    };

    const result = bom(mixed, 'corrective');

    expect(partNumbers(result)).toEqual(['INV-CM-LAB', 'INV-DC-FUSE', 'SMA-SUNCLIX-SB', 'SMA-COMM-MOD', 'SMA-FANKIT-STP', 'SMA-SPD-DC-T2']);
    expect(result.items.find((i) => i.part_number === 'SMA-COMM-MOD')).toEqual({ part_number: 'SMA-COMM-MOD', description: expect.any(String), quantity: 2, unit_cost: 329, total_cost: 658 });
    expect(result.total_cost_cents).toBe(result.items.reduce((sum, i) => sum + Math.round(i.total_cost * 100), 0));
  });

  it('adds the type-specific emergency items of a wind turbine', () => {
    const result = bom(asset('Wind Turbine', 3000, ['Vestas']), 'emergency');

    expect(partNumbers(result)).toEqual(['WTG-CM-LAB', 'WTG-EMG-CLIMB', 'VES-PITCH-ACC', 'SVC-EMG-CALLOUT', 'SVC-EMG-EXPEDITE']);
    expect(result.items.find((i) => i.part_number === 'WTG-CM-LAB')?.quantity).toBe(48); // 16 h per MW
    expect(result.items.find((i) => i.part_number === 'VES-PITCH-ACC')?.quantity).toBe(3); // one per blade
  });

  it('costs a PV array with the parts of its inverters OEM', () => {
    const result = bom(asset('Solar Panel', 100, ['Enphase Energy']), 'corrective');

    expect(lines(result)).toEqual([
      ['PV-CM-LAB', 4, 95, 380],
      ['PV-MODULE-400', 2, 165, 330],
      ['PV-MC4-PAIR', 10, 4.35, 43.5],
      ['PV-CABLE-6MM', 20, 1.85, 37],
      ['ENPH-IQ8PLUS', 10, 169, 1690],
      ['ENPH-IQCABLE-KIT', 1, 28.5, 28.5],
    ]);
    expect(result.total_cost).toBe(2509);
  });

  it('washes modules per kW of the array', () => {
    const result = bom(asset('pv_array', 37.5), 'preventive');

    expect(result.items.find((i) => i.part_number === 'PV-CLEAN-KW')).toEqual(expect.objectContaining({ quantity: 38, unit_cost: 4.5, total_cost: 171 }));
  });

  it('refuses a job it cannot cost', () => {
    expect(() => bom(asset('inverter', 0), 'preventive')).toThrow(InvalidBomRequest);
    expect(() => bom(asset('inverter', Number.NaN), 'preventive')).toThrow(/capacity_kw/);
    expect(() => bom(asset('inverter', 100), 'annual' as MaintenanceType)).toThrow(/maintenance_type must be one of preventive, corrective, emergency/);
  });
});

describe('quantity rules', () => {
  it('counts fixed parts once whatever the size', () => {
    expect(quantityOf({ per: 'fixed', quantity: 3 }, 5000, 7)).toBe(3);
  });

  it('rounds per-kW quantities up without charging for floating-point noise', () => {
    expect(0.07 * 100).toBeGreaterThan(7); // 7.000000000000001
    expect(quantityOf({ per: 'per_kw', quantity_per_kw: 0.07 }, 100, 1)).toBe(7);
    expect(quantityOf({ per: 'per_kw', quantity_per_kw: 1 }, 10.2, 1)).toBe(11);
  });

  it('rounds blocks of N kW up, and needs at least one unit of a part that applies', () => {
    expect(quantityOf({ per: 'per_n_kw', n_kw: 50, quantity: 1 }, 100, 1)).toBe(2);
    expect(quantityOf({ per: 'per_n_kw', n_kw: 50, quantity: 1 }, 101, 1)).toBe(3);
    expect(quantityOf({ per: 'per_n_kw', n_kw: 100, quantity: 4 }, 250, 1)).toBe(12);
    expect(quantityOf({ per: 'per_n_kw', n_kw: 1000, quantity: 2 }, 0.001, 1)).toBe(2);
  });

  it('multiplies per-component parts by the number of components', () => {
    expect(quantityOf({ per: 'per_component', quantity: 3 }, 100, 4)).toBe(12);
  });
});

describe('parts catalogue', () => {
  const entries: AssetTypeParts[] = [...Object.values(PARTS_CATALOGUE), GENERIC_PARTS];
  const groups: PartGroup[] = [EMERGENCY_SERVICE_PARTS, ...entries.flatMap((e) => [e.common, e.unbranded, ...e.oems])];
  const parts = groups.flatMap((g) => g.parts);

  it('matches asset types case-insensitively, with aliases', () => {
    expect(catalogueFor('Solar Panel').key).toBe('pv_array');
    expect(catalogueFor('PV-Array').key).toBe('pv_array');
    expect(catalogueFor(' BESS ').key).toBe('bess');
    expect(catalogueFor('Battery').key).toBe('bess');
    expect(catalogueFor('WIND_TURBINE').key).toBe('wind_turbine');
    expect(catalogueFor('String Inverter').key).toBe('inverter');
    expect(catalogueFor('XFMR').key).toBe('transformer');
    expect(catalogueFor('Revenue meter').key).toBe('meter');
    expect(catalogueFor('flywheel').key).toBe('generic');
    expect(catalogueFor('').key).toBe('generic');
  });

  it('matches an OEM by its whole name or first word, never by a prefix', () => {
    const inverter = catalogueFor('inverter');
    expect(oemPartsFor(inverter, 'SMA Solar Technology AG')?.oem).toBe('SMA');
    expect(oemPartsFor(inverter, 'Solar Edge')?.oem).toBe('SolarEdge');
    expect(oemPartsFor(inverter, 'huawei technologies co., ltd.')?.oem).toBe('Huawei');
    expect(oemPartsFor(inverter, 'Smartwatt')).toBeUndefined();
    expect(oemPartsFor(inverter, '  ')).toBeUndefined();
    expect(oemPartsFor(catalogueFor('battery'), 'LG Energy Solution')?.oem).toBe('LG');
    expect(oemPartsFor(catalogueFor('battery'), 'SMA')?.oem).toBe('SMA'); // a BESS lists its PCS: inverter OEMs apply
    expect(oemPartsFor(catalogueFor('wind turbine'), 'GE Vernova')?.oem).toBe('GE');
    expect(oemPartsFor(catalogueFor('wind turbine'), 'SMA')).toBeUndefined();
  });

  it('covers the asset types the service expects, each with preventive and corrective parts', () => {
    expect([...ASSET_TYPES]).toEqual(['inverter', 'pv_array', 'bess', 'wind_turbine', 'transformer', 'meter']);
    for (const entry of entries) {
      const own = [entry.common, entry.unbranded, ...entry.oems].flatMap((g) => g.parts);
      expect([entry.key, own.some((p) => p.maintenance_types.includes('preventive'))]).toEqual([entry.key, true]);
      expect([entry.key, own.some((p) => p.maintenance_types.includes('corrective'))]).toEqual([entry.key, true]);
    }
  });

  it('holds OEM-specific parts for the major inverter, battery and turbine makers', () => {
    const oems = (key: keyof typeof PARTS_CATALOGUE) => PARTS_CATALOGUE[key].oems.map((o) => o.oem);
    expect(oems('inverter')).toEqual(['SMA', 'Huawei', 'Fronius', 'SolarEdge', 'Enphase', 'Sungrow']);
    expect(oems('bess')).toEqual(['Tesla', 'BYD', 'LG']);
    expect(oems('wind_turbine')).toEqual(['Vestas', 'Siemens Gamesa', 'GE']);
  });

  it('gives every part a unique number, a positive cost in whole cents and a maintenance type', () => {
    expect(new Set(parts.map((p) => p.part_number)).size).toBe(parts.length);
    for (const p of parts) {
      expect([p.part_number, Number.isInteger(p.unit_cost_cents) && p.unit_cost_cents > 0, p.maintenance_types.length > 0]).toEqual([p.part_number, true, true]);
    }
  });

  it('says for every group of figures that they are indicative, and from where', () => {
    for (const g of groups.filter((x) => x.parts.length > 0)) expect(g.source).toMatch(/indicative/i);
  });
});
