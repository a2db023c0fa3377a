import { normalisePolicyContext, parseProjectSizeKw } from '../../../shared/domain/policy/context';

const region = (value: string) => {
  const c = normalisePolicyContext({ region: value });
  return [c.region, c.jurisdiction];
};

describe('policy context normalisation', () => {
  it.each([
    ['EU', 'EU', undefined],
    ['Europe', 'EU', undefined],
    ['Germany', 'EU', 'DE'],
    ['DE', 'EU', 'DE'],
    ['US', 'NA', 'US'],
    ['USA', 'NA', 'US'],
    ['United States', 'NA', 'US'],
    ['California', 'NA', 'US-CA'],
    ['US-CA', 'NA', 'US-CA'],
    ['California, USA', 'NA', 'US-CA'],
    ['North America', 'NA', undefined],
    ['Canada', 'NA', 'CA'],
    ['Ontario', 'NA', 'CA-ON'],
    ['South Africa', 'SSA', 'ZA'],
    ['Kenya', 'SSA', 'KE'],
    ['Nigeria', 'SSA', 'NG'],
    ['Africa', 'SSA', undefined],
    ['SSA', 'SSA', undefined],
  ])('reads region "%s" as %s / %s', (value, expectedRegion, expectedJurisdiction) => {
    expect(region(value)).toEqual([expectedRegion, expectedJurisdiction]);
  });

  it('reads "CA" as Canada and says so', () => {
    const c = normalisePolicyContext({ region: 'CA' });

    expect(c.jurisdiction).toBe('CA');
    expect(c.notes.join(' ')).toMatch(/Canada/);
  });

  it('sets no region filter for an unknown region and notes it', () => {
    const c = normalisePolicyContext({ region: 'Mars' });

    expect(c.region).toBeUndefined();
    expect(c.jurisdiction).toBeUndefined();
    expect(c.notes).toEqual([expect.stringContaining('"Mars"')]);
  });

  it.each([
    ['50 kW', 50],
    ['2 MW', 2000],
    ['500kWp', 500],
    ['1.5 MWp', 1500],
    ['1,5 MW', 1500],
    ['1,500 kW', 1500],
    ['5 MW AC', 5000],
    ['800 W', 0.8],
    ['10 kVA', 10],
    ['250', 250],
  ])('parses project size "%s" as %d kW', (value, kw) => {
    expect(parseProjectSizeKw(value)).toBeCloseTo(kw, 9);
  });

  it('takes a bare number as kW', () => {
    expect(normalisePolicyContext({ project_size: 75 }).project_size_kw).toBe(75);
  });

  it('refuses an energy as a size and notes why', () => {
    const c = normalisePolicyContext({ project_size: '13.5 kWh' });

    expect(c.project_size_kw).toBeUndefined();
    expect(c.notes).toEqual([expect.stringContaining('energy')]);
  });

  it('sets no size filter for text it cannot read', () => {
    const c = normalisePolicyContext({ project_size: 'big' });

    expect(c.project_size_kw).toBeUndefined();
    expect(c.notes).toHaveLength(1);
  });

  it.each([
    ['residential', ['residential']],
    ['Homeowner', ['residential']],
    ['Commercial & Industrial', ['commercial', 'industrial']],
    ['C&I', ['commercial', 'industrial']],
    ['utility-scale', ['utility']],
    ['factory', ['industrial']],
  ])('reads sector "%s"', (value, sectors) => {
    expect(normalisePolicyContext({ sector: value }).sectors?.sort()).toEqual([...sectors].sort());
  });

  it('sets no sector filter for an unknown sector and notes it', () => {
    const c = normalisePolicyContext({ sector: 'space tourism' });

    expect(c.sectors).toBeUndefined();
    expect(c.notes).toEqual([expect.stringContaining('space tourism')]);
  });

  it.each([
    ['rooftop solar', ['rooftop_solar']],
    ['ground-mounted PV', ['ground_mount_solar']],
    ['battery', ['battery_storage']],
    ['solar + storage', ['battery_storage', 'carport_solar', 'ground_mount_solar', 'rooftop_solar']],
    ['solar', ['carport_solar', 'ground_mount_solar', 'rooftop_solar']],
    ['solar carport', ['carport_solar']],
    ['solar water heater', ['solar_water_heating']],
    ['wind turbine', ['wind']],
    ['mini-grid', ['mini_grid']],
  ])('reads installation type "%s"', (value, types) => {
    expect(normalisePolicyContext({ installation_type: value }).installation_types?.sort()).toEqual(types);
  });

  it('sets no installation filter for an unknown type and notes it', () => {
    const c = normalisePolicyContext({ installation_type: 'hydrogen electrolyser' });

    expect(c.installation_types).toBeUndefined();
    expect(c.notes).toHaveLength(1);
  });

  it('takes a large project without a sector as non-residential', () => {
    const large = normalisePolicyContext({ project_size: '5 MW' });
    const small = normalisePolicyContext({ project_size: '8 kW' });

    expect(large.sectors).toEqual(['commercial', 'industrial', 'utility']);
    expect(large.notes).toEqual([expect.stringContaining('non-residential')]);
    expect(small.sectors).toBeUndefined();
  });

  it('sets no filter and no note when the context is absent', () => {
    expect(normalisePolicyContext()).toEqual({ notes: [] });
    expect(normalisePolicyContext({ region: '  ', sector: '' })).toEqual({ notes: [] });
  });
});
