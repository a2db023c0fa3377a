/** Regulatory updates: feed parsing, de-duplication, prioritisation, the curated seed and the scheduled pull. */
export { FeedParseError } from './errors';
export { DEFAULT_FEEDS, WATCHED_PAGES } from './feeds';
export { parseFeed } from './parse-feed';
export { toUpdates, effectiveDateOf } from './to-updates';
export { assessUpdate, STAGE_RULES, TOPIC_RULES, type Assessment, type AssessInput } from './priority';
export { dedupeKeys, normaliseLink, updateId } from './links';
export { extractEffectiveDate, parseFeedDate } from './dates';
export { seedUpdates } from './seed';
export { pullFeeds, newestItems, FeedTimeout, FeedTooLarge, type FetchText, type PullLog, type PullOptions, type FeedReport, type PullResult } from './pull-feeds';
export type { FeedFormat, FeedItem, FeedSource, ParsedFeed, Priority, Region, RegulatoryUpdate, SkippedItem } from './types';
