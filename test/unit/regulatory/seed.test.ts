import seed from '../../../shared/domain/regulatory/seed-updates.json';
import { updateId } from '../../../shared/domain/regulatory/links';
import { seedUpdates } from '../../../shared/domain/regulatory/seed';

const OFFICIAL_HOSTS = [
  'www.ferc.gov', 'docs.cpuc.ca.gov', 'www.irs.gov', 'www.energy.ca.gov', 'eur-lex.europa.eu', 'www.recht.bund.de',
  'www.nersa.org.za', 'www.gov.za', 'new.kenyalaw.org', 'nerc.gov.ng', 'minigrid.nerc.gov.ng',
];

describe('seedUpdates', () => {
  const updates = seedUpdates();

  it('holds at least 15 curated updates with unique ids, across the three regions', () => {
    expect(updates.length).toBeGreaterThanOrEqual(15);
    expect(new Set(updates.map((u) => u.id)).size).toBe(updates.length);
    expect(new Set(updates.map((u) => u.region))).toEqual(new Set(['NA', 'EU', 'SSA']));
  });

  it('hashes ids from the document URL as pulled items are hashed', () => {
    const red3 = updates.find((u) => u.document_url === 'https://eur-lex.europa.eu/eli/dir/2023/2413/oj')!;
    expect(red3.id).toBe(updateId({ link: 'https://eur-lex.europa.eu/eli/dir/2023/2413/oj' }));
    expect(red3.effective_date).toBe('2023-11-20');
  });

  it('links every update to an official publisher over https', () => {
    for (const update of updates) {
      const url = new URL(update.document_url);
      expect(url.protocol).toBe('https:');
      expect(OFFICIAL_HOSTS).toContain(url.host);
    }
  });

  it('runs the curated records through the priority rules: all are adopted measures, so all are high', () => {
    expect(updates.map((u) => u.priority)).toEqual(seed.map(() => 'high'));
    const order2023 = updates.find((u) => u.title.startsWith('FERC Order No. 2023'))!;
    expect(order2023.impact_assessment).toBe('Order on interconnection; affects grid connection of solar and storage projects in US; effective 2023-11-06.');
    const kenya = updates.find((u) => u.jurisdiction === 'KE')!;
    expect(kenya.impact_assessment).toBe('Adopted measure on net metering; affects behind-the-meter solar in KE; effective 2024-07-18.');
  });

  it('carries the curated dates through, publication at midnight UTC or null', () => {
    const nigeria = updates.find((u) => u.title === "Nigeria's Electricity Act 2023 signed into law")!;
    expect(nigeria).toMatchObject({ effective_date: '2023-06-09', published_at: '2023-06-09T00:00:00.000Z', region: 'SSA', jurisdiction: 'NG' });
    expect(updates.find((u) => u.jurisdiction === 'US-CA' && u.title.includes('Title 24'))!.published_at).toBeNull();
  });
});
