/**
 * The official feeds the daily pull reads (ARCHITECTURE 5, flow 5). Configuration, not code: a deployment may
 * pass its own list to `pullFeeds`.
 *
 * Which bodies publish a feed:
 *   - Federal Register (US): RSS 2.0. Its public API serves every document search as `documents.rss`, so
 *     one search per agency is one feed. These are the DEFAULT_FEEDS.
 *   - FERC news, European Commission energy news, EUR-Lex, NERSA (South Africa), EPRA (Kenya) and NERC
 *     (Nigeria): official news pages; a stable public RSS/Atom address for them could not be confirmed when
 *     this list was written, so they are kept in WATCHED_PAGES (not pulled: an HTML page is not a feed and
 *     `pullFeeds` would report it failed every day). Move one into the pulled list once its feed is known.
 *   The curated seed (`seed-updates.json`) covers the EU and SSA measures meanwhile.
 */
import type { FeedSource } from './types';

const FEDERAL_REGISTER_RSS = 'https://www.federalregister.gov/api/v1/documents.rss';

/** Feeds pulled by default; every one publishes RSS 2.0. */
export const DEFAULT_FEEDS: readonly FeedSource[] = [
  {
    id: 'federal-register-ferc',
    name: 'Federal Register: Federal Energy Regulatory Commission',
    url: `${FEDERAL_REGISTER_RSS}?conditions[agencies][]=federal-energy-regulatory-commission`,
    region: 'NA',
    jurisdiction: 'US',
  },
  {
    id: 'federal-register-doe',
    name: 'Federal Register: Department of Energy',
    url: `${FEDERAL_REGISTER_RSS}?conditions[agencies][]=energy-department`,
    region: 'NA',
    jurisdiction: 'US',
  },
  {
    id: 'federal-register-irs-clean-electricity',
    name: 'Federal Register: IRS clean electricity credits',
    url: `${FEDERAL_REGISTER_RSS}?conditions[agencies][]=internal-revenue-service&conditions[term]=clean+electricity`,
    region: 'NA',
    jurisdiction: 'US',
  },
];

/** Official news pages without a confirmed feed (see the module comment); not pulled. */
export const WATCHED_PAGES: readonly FeedSource[] = [
  { id: 'ferc-news', name: 'FERC news releases', url: 'https://www.ferc.gov/news-events/news', region: 'NA', jurisdiction: 'US' },
  { id: 'ec-energy-news', name: 'European Commission: Energy news', url: 'https://energy.ec.europa.eu/news_en', region: 'EU', jurisdiction: 'EU' },
  { id: 'nersa-news', name: 'NERSA (South Africa)', url: 'https://www.nersa.org.za/', region: 'SSA', jurisdiction: 'ZA' },
  { id: 'epra-news', name: 'EPRA (Kenya)', url: 'https://www.epra.go.ke/', region: 'SSA', jurisdiction: 'KE' },
  { id: 'nerc-ng-news', name: 'NERC (Nigeria)', url: 'https://nerc.gov.ng/', region: 'SSA', jurisdiction: 'NG' },
];
