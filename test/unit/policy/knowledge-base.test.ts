import { JURISDICTIONS } from '../../../shared/domain/policy/context';
import { POLICY_KNOWLEDGE_BASE, policyEntryById, policyEntrySchema } from '../../../shared/domain/policy/knowledge-base';
import { POLICY_REGIONS } from '../../../shared/domain/policy/types';

const entriesOf = (region: string) => POLICY_KNOWLEDGE_BASE.filter((e) => e.region === region);

describe('policy knowledge base integrity', () => {
  it('holds at least 45 entries with unique ids', () => {
    const ids = POLICY_KNOWLEDGE_BASE.map((e) => e.id);

    expect(ids.length).toBeGreaterThanOrEqual(45);
    expect(new Set(ids).size).toBe(ids.length);
    expect(policyEntryById('us-irc-25d-residential-clean-energy')?.jurisdiction).toBe('US');
    expect(policyEntryById('no-such-entry')).toBeUndefined();
  });

  it('gives every entry every required field, validated by the schema', () => {
    for (const entry of POLICY_KNOWLEDGE_BASE) {
      const result = policyEntrySchema.safeParse(entry);
      expect({ id: entry.id, ok: result.success }).toEqual({ id: entry.id, ok: true });
    }
  });

  it('points every document_url at an https address with a host', () => {
    for (const entry of POLICY_KNOWLEDGE_BASE) {
      const url = new URL(entry.document_url);
      expect({ id: entry.id, protocol: url.protocol }).toEqual({ id: entry.id, protocol: 'https:' });
      expect(url.hostname).toMatch(/\.[a-z]{2,}$/);
    }
  });

  it('dates every entry with a real calendar date between 1970 and 2030', () => {
    for (const entry of POLICY_KNOWLEDGE_BASE) {
      const d = new Date(`${entry.effective_date}T00:00:00Z`);
      expect(d.toISOString().slice(0, 10)).toBe(entry.effective_date);
      expect(d.getUTCFullYear()).toBeGreaterThanOrEqual(1970);
      expect(d.getUTCFullYear()).toBeLessThanOrEqual(2030);
    }
  });

  it('covers each region with at least 10 entries, and Sub-Saharan Africa includes South Africa, Kenya and Nigeria', () => {
    for (const region of POLICY_REGIONS) expect(entriesOf(region).length).toBeGreaterThanOrEqual(10);
    const ssaJurisdictions = new Set(entriesOf('SSA').map((e) => e.jurisdiction));

    for (const code of ['ZA', 'KE', 'NG']) expect(ssaJurisdictions.has(code)).toBe(true);
  });

  it('files every entry under the region of its jurisdiction', () => {
    for (const entry of POLICY_KNOWLEDGE_BASE) {
      expect({ id: entry.id, region: JURISDICTIONS.get(entry.jurisdiction)?.region }).toEqual({ id: entry.id, region: entry.region });
    }
  });

  it('keeps summaries to 2-5 sentences and size ranges ordered', () => {
    for (const entry of POLICY_KNOWLEDGE_BASE) {
      const count = entry.summary.split(/(?<=[.!?])\s+(?=[A-Z"(])/).length;
      expect({ id: entry.id, ok: count >= 2 && count <= 5 }).toEqual({ id: entry.id, ok: true });
      const { min, max } = entry.project_size_kw;
      if (min !== undefined && max !== undefined) expect(min).toBeLessThanOrEqual(max);
    }
  });
});
