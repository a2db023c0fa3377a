/**
 * Why a feed body cannot be read as a feed. The scheduled pull logs it against the feed and moves on to
 * the next one (ARCHITECTURE 5, flow 5); nothing of it reaches an API response.
 */
export class FeedParseError extends Error {
  constructor(
    readonly reason: string,
    readonly feedId?: string,
  ) {
    super(feedId ? `Feed ${feedId} could not be parsed: ${reason}` : `Feed could not be parsed: ${reason}`);
    this.name = 'FeedParseError';
  }
}
