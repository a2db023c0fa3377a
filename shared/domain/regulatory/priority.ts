/**
 * Priority and impact of an update, by a fixed keyword rule table (no model, so the same text always gets
 * the same answer and a reviewer can see why).
 *
 * Stage rules say what kind of document it is. Each has a strength; the strongest match decides the stage,
 * read from the title first (the title names the document) and from the summary only when the title
 * matches no stage rule:
 *   4 binding, explicit: final rule, order No., act or bill signed/enacted, Directive/Regulation (EU) No., decision
 *     No., effective date / takes effect / enters into force, compliance or filing deadline   -> high
 *   3 proposal: proposed rule, NOPR, notice of inquiry, consultation, draft, request for comments or
 *     information, call for evidence, comments due                                            -> medium
 *   2 binding, by verb: guidance (IRS notices), adopts, approves, gazettes, publishes
 *     regulations, amends                                                                     -> high
 *   1 information: routine notices (combined notice of filings, notice of effectiveness, take
 *     notice), news, press release, speech, remarks, statement, event, webinar, meeting,
 *     workshop, conference, report                                                            -> low
 * A proposal outranks a verb ("EPRA publishes draft regulations" is a draft) but not an explicit binding
 * marker ("final rule ... proposed in the NOPR" is a final rule).
 *
 * Topic rules say what it touches and whom it affects; the impact sentence names at most two, those the
 * title names first. Interconnection, net metering or billing, tariffs
 * and grid codes are high-impact topics; the rest (tax credits, storage, DER aggregation, transmission
 * planning, market design, licensing, permitting, buildings, mini-grids, reliability) are ordinary.
 *
 * Priority: binding stage -> high; proposal -> medium (a proposal changes no obligation yet, whatever its
 * topic); information -> low, or medium with a high-impact topic; no stage -> high with a high-impact topic,
 * medium with another topic, low with none.
 */
import type { Priority } from './types';

type Stage = 'binding' | 'proposal' | 'information';

interface StageRule {
  stage: Stage;
  strength: 1 | 2 | 3 | 4;
  /** How the impact sentence names the document. */
  label: string;
  pattern: RegExp;
}

export const STAGE_RULES: readonly StageRule[] = [
  { stage: 'binding', strength: 4, label: 'Final rule', pattern: /\bfinal\s+(?:rule|regulations?)\b/i },
  { stage: 'binding', strength: 4, label: 'Order', pattern: /\border\s+no\.?\s*\d+|\b(?:final\s+)?order\s+(?:on|granting|approving|accepting|directing|instituting|addressing)\b|\bissues?\s+(?:an?\s+)?(?:final\s+)?order\b/i },
  { stage: 'binding', strength: 4, label: 'Law', pattern: /\bsigned\s+into\s+law\b|\b(?:act|bill)\b[^.]{0,60}\b(?:signed|assented|enacted|promulgated)\b|\b(?:signs?|assents?\s+to)\b[^.]{0,60}\b(?:act|bill)\b/i },
  { stage: 'binding', strength: 4, label: 'EU legal act', pattern: /\b(?:directive|regulation|decision)\s+\((?:eu|ec)\)\s+(?:no\s+)?\d{4}\/\d+/i },
  { stage: 'binding', strength: 4, label: 'Decision', pattern: /\bdecision\s+(?:no\.?\s*)?d?\.?\d{2}-\d{2}-\d{3}\b|\bdecision\s+adopt(?:s|ed|ing)\b/i },
  { stage: 'binding', strength: 4, label: 'Measure taking effect', pattern: /(?<![\w-])(?:effective\s+(?:date|on|from|as\s+of|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d{1,2}\s+[a-z]+\s+\d{4}|\d{4}-\d{2}-\d{2})|takes?\s+effect|took\s+effect|with\s+effect\s+from|(?:comes?|came|enters?|entered|entry)\s+into\s+(?:force|operation))/i },
  { stage: 'binding', strength: 4, label: 'Deadline', pattern: /\b(?:compliance|filing|registration|application)\s+(?:deadline|date)\b|(?<!comments?\s)\bdeadline\s+(?:for|to)\s+(?:comply|compliance|register|file|apply)/i },
  { stage: 'proposal', strength: 3, label: 'Proposed rule', pattern: /\bproposed\s+(?:rule|regulations?|amendments?|changes?|decision|directive|tariff)s?\b|\bnopr\b|\bnotice\s+of\s+proposed\s+rulemaking\b|\banopr\b/i },
  { stage: 'proposal', strength: 3, label: 'Notice of inquiry', pattern: /\bnotice\s+of\s+inquiry\b|\bnoi\b/i },
  { stage: 'proposal', strength: 3, label: 'Consultation', pattern: /\bconsultations?\b|\bcall\s+for\s+(?:evidence|comments|input)\b|\brequest\s+for\s+(?:comments?|information|input)\b|\bcomments?\s+(?:due|invited|sought|are\s+requested)\b|\bdraft\b|\bpublic\s+(?:comment|participation|hearing)s?\b/i },
  { stage: 'binding', strength: 2, label: 'Guidance', pattern: /\bguidance\b|\bnotice\s+\d{4}-\d+\b/i },
  { stage: 'binding', strength: 2, label: 'Adopted measure', pattern: /\b(?:adopts?|adopted|approves?|approved|gazett(?:es|ed)|amends?|amended|repeals?|repealed)\b|\b(?:publishes?|issues?|issued|published)\b[^.]{0,40}\b(?:regulations?|rules?|code|tariffs?|guidance|notice)\b/i },
  { stage: 'information', strength: 1, label: 'Routine notice', pattern: /\bcombined\s+notice\s+of\s+filings\b|\bnotice\s+of\s+(?:effectiveness|filing|application|intent|availability|termination)\b|\btake\s+notice\b/i },
  { stage: 'information', strength: 1, label: 'News', pattern: /\bnews\b|\bpress\s+release\b|\bspeech\b|\bremarks\b|\bstatement\b|\bevent\b|\bwebinar\b|\bmeeting\b|\bworkshop\b|\bconference\b|\breport\b|\bnewsletter\b|\bpodcast\b|\binterview\b/i },
];

interface TopicRule {
  topic: string;
  segment: string;
  highImpact: boolean;
  pattern: RegExp;
}

export const TOPIC_RULES: readonly TopicRule[] = [
  { topic: 'interconnection', segment: 'grid connection of solar and storage projects', highImpact: true, pattern: /\binterconnect(?:ion|ed)?\b|\bgrid\s+connection\b|\bconnection\s+to\s+the\s+grid\b|\bqueue\b/i },
  { topic: 'net metering', segment: 'behind-the-meter solar', highImpact: true, pattern: /\bnet[\s-]?(?:energy\s+)?metering\b|\bnet\s+billing\b|\bnem\b|\bself-consumption\b|\bprosumers?\b/i },
  { topic: 'tariffs', segment: 'tariff-based project revenue', highImpact: true, pattern: /\btariffs?\b|\bfeed-in\b|\brate\s+(?:case|schedule|design|increase|change)s?\b|\bwheeling\b|\bnetwork\s+charges?\b/i },
  { topic: 'grid code', segment: 'technical compliance of grid-connected plants', highImpact: true, pattern: /\bgrid\s+code\b|\bnetwork\s+code\b|\brequirements\s+for\s+generators\b|\bdistribution\s+code\b/i },
  { topic: 'tax credits and incentives', segment: 'project economics', highImpact: false, pattern: /\btax\s+credits?\b|\b(?:45Y|48E|45X|48|45)\b(?=[^.]{0,20}\bcredit)|\binvestment\s+credit\b|\bproduction\s+credit\b|\bincentives?\b|\bsubsid(?:y|ies)\b|\bgrants?\b|\bbonus\b/i },
  { topic: 'energy storage', segment: 'battery storage projects', highImpact: false, pattern: /(?<!gas\s)\bstorage\b|\bbatter(?:y|ies)\b/i },
  { topic: 'distributed energy resources', segment: 'DER aggregators', highImpact: false, pattern: /\bdistributed\s+energy\s+resources?\b|\bder\s+aggregat|\baggregat(?:ion|ors?)\b|\bvirtual\s+power\s+plants?\b|\bdemand\s+response\b/i },
  { topic: 'transmission planning', segment: 'transmission planning', highImpact: false, pattern: /\btransmission\s+(?:planning|expansion|system\s+operator|company)\b|\bcost\s+allocation\b/i },
  { topic: 'market design', segment: 'wholesale market access', highImpact: false, pattern: /\bmarket\s+(?:design|reform|code|operator|rules)\b|\bwholesale\b|\bcapacity\s+market\b|\bpower\s+purchase\s+agreements?\b|\bppas?\b|\bcontracts?\s+for\s+difference\b|\bopen\s+access\b|\bunbundl|\belectricity\s+markets?\b/i },
  { topic: 'licensing', segment: 'generation licensing', highImpact: false, pattern: /\blicen[cs](?:e|es|ing)\b|\bregistration\b|\bexempt(?:ion)?\b/i },
  { topic: 'permitting', segment: 'project permitting', highImpact: false, pattern: /\bpermit(?:s|ting)?\b|\bacceleration\s+areas?\b|\bsiting\b/i },
  { topic: 'renewable targets', segment: 'renewable deployment', highImpact: false, pattern: /\brenewable\s+energy\s+(?:directive|target|share)\b|\brenewables?\s+target\b|\bred\s+iii\b/i },
  { topic: 'buildings', segment: 'solar on buildings', highImpact: false, pattern: /\bbuildings?\b|\brooftop\b|\bsolar\s+(?:mandate|standard)\b|\benergy\s+efficiency\s+standards?\b/i },
  { topic: 'mini-grids', segment: 'mini-grid developers', highImpact: false, pattern: /\bmini[\s-]?grids?\b|\boff[\s-]grid\b|\bisolated\s+grids?\b/i },
  { topic: 'reliability', segment: 'reliability compliance', highImpact: false, pattern: /\breliability\s+standards?\b|\bcybersecurity\b|\bcip-\d+/i },
];

/** Most topics (and their segments) named in one impact sentence. */
const MAX_TOPICS = 2;

export interface Assessment {
  priority: Priority;
  impact_assessment: string;
  /** The stage rule that decided, if any; for logs and tests. */
  stage?: Stage;
  topics: string[];
}

export interface AssessInput {
  title: string;
  summary: string;
  jurisdiction: string;
  /** Effective date the text (or a curated record) states, YYYY-MM-DD. */
  statedEffectiveDate?: string;
  /** Publication date, YYYY-MM-DD, when known. */
  publishedDate?: string;
}

function strongestStage(text: string): StageRule | undefined {
  let best: StageRule | undefined;
  for (const rule of STAGE_RULES) if (rule.pattern.test(text) && (!best || rule.strength > best.strength)) best = rule;
  return best;
}

function priorityOf(stage: Stage | undefined, topics: readonly TopicRule[]): Priority {
  const highTopic = topics.some((t) => t.highImpact);
  switch (stage) {
    case 'binding': return 'high';
    case 'proposal': return 'medium';
    case 'information': return highTopic ? 'medium' : 'low';
    default: return highTopic ? 'high' : topics.length > 0 ? 'medium' : 'low';
  }
}

function timing(stage: Stage | undefined, input: AssessInput): string {
  if (stage === 'proposal') {
    return input.statedEffectiveDate ? `not yet binding (proposed effective date ${input.statedEffectiveDate})` : 'not yet binding; a final decision may follow';
  }
  if (input.statedEffectiveDate) return `effective ${input.statedEffectiveDate}`;
  if (stage === 'information') return 'for awareness; no new obligation stated';
  return input.publishedDate ? `no effective date stated (published ${input.publishedDate})` : 'no effective date stated';
}

/** Priority and a one-sentence impact assessment of an update (rules in the module comment). */
export function assessUpdate(input: AssessInput): Assessment {
  const stageRule = strongestStage(input.title) ?? strongestStage(input.summary);
  // Topics the title names come first: the title says what the document is about.
  const inTitle = TOPIC_RULES.filter((rule) => rule.pattern.test(input.title));
  const topics = [...inTitle, ...TOPIC_RULES.filter((rule) => !inTitle.includes(rule) && rule.pattern.test(input.summary))];
  const priority = priorityOf(stageRule?.stage, topics);

  const what = stageRule?.label ?? 'Regulatory update';
  const about = topics.length > 0 ? ` on ${joinList(topics.slice(0, MAX_TOPICS).map((t) => t.topic))}` : '';
  const segments = topics.length > 0 ? joinList(topics.slice(0, MAX_TOPICS).map((t) => t.segment)) : 'energy projects';
  const impact = `${what}${about}; affects ${segments} in ${input.jurisdiction}; ${timing(stageRule?.stage, input)}.`;
  return { priority, impact_assessment: impact, ...(stageRule ? { stage: stageRule.stage } : {}), topics: topics.map((t) => t.topic) };
}

function joinList(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
