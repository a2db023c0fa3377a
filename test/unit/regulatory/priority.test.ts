import { assessUpdate } from '../../../shared/domain/regulatory/priority';

function assess(title: string, summary = '', extra: { statedEffectiveDate?: string; publishedDate?: string } = {}) {
  return assessUpdate({ title, summary, jurisdiction: 'US', ...extra });
}

describe('priority rules', () => {
  it('rates final rules, orders, laws and measures taking effect high', () => {
    expect(assess('Final rule: Improvements to Generator Interconnection Procedures').priority).toBe('high');
    expect(assess('Order No. 1920: Building for the Future Through Electric Regional Transmission Planning').priority).toBe('high');
    expect(assess('Electricity Act 2023 signed into law').priority).toBe('high');
    expect(assess('New grid code takes effect on 1 July 2025').priority).toBe('high');
    expect(assess('Regulator approves revised net-metering tariff').priority).toBe('high');
  });

  it('rates proposals and consultations medium, whatever their topic', () => {
    expect(assess('Notice of proposed rulemaking on interconnection queue reform').priority).toBe('medium');
    expect(assess('Public consultation on net billing tariff design').priority).toBe('medium');
    expect(assess('Notice of Inquiry regarding transmission planning').priority).toBe('medium');
    expect(assess('EPRA publishes draft net-metering regulations for comment').priority).toBe('medium');
  });

  it('rates news, speeches, events and routine notices low', () => {
    expect(assess('Speech by the Chairman at the annual energy conference').priority).toBe('low');
    expect(assess('Combined Notice of Filings #1', 'Take notice that the Commission received the following filings.').priority).toBe('low');
    expect(assess('Commission meeting agenda').priority).toBe('low');
  });

  it('raises news about a high-impact topic to medium, and a bare high-impact topic to high', () => {
    expect(assess('News: what the interconnection queue backlog means for developers').priority).toBe('medium');
    expect(assess('Net metering changes for rooftop solar customers').priority).toBe('high');
    expect(assess('Battery storage deployment in the western states').priority).toBe('medium');
    expect(assess('Sunshine notice').priority).toBe('low');
  });

  it('lets the title decide the stage: a final rule that mentions its proposal stays a final rule', () => {
    const rule = assess('Final rule on interconnection', 'This final rule adopts, with changes, the reforms proposed in the NOPR.');
    expect(rule.priority).toBe('high');
    expect(rule.stage).toBe('binding');
  });
});

describe('impact assessment', () => {
  it('names the document, topics, segments, jurisdiction and effective date', () => {
    expect(assess('Final rule on interconnection', '', { statedEffectiveDate: '2026-01-01' }).impact_assessment).toBe(
      'Final rule on interconnection; affects grid connection of solar and storage projects in US; effective 2026-01-01.',
    );
  });

  it('says a proposal is not yet binding', () => {
    expect(assess('Proposed rule on net metering successor tariff').impact_assessment).toBe(
      'Proposed rule on net metering and tariffs; affects behind-the-meter solar and tariff-based project revenue in US; not yet binding; a final decision may follow.',
    );
  });

  it('is never empty, even when no rule matches', () => {
    expect(assess('Sunshine notice', '', { publishedDate: '2025-11-06' }).impact_assessment).toBe(
      'Regulatory update; affects energy projects in US; no effective date stated (published 2025-11-06).',
    );
    expect(assess('', '').impact_assessment).toBe('Regulatory update; affects energy projects in US; no effective date stated.');
  });
});
