/**
 * Why fetching, parsing or reading a source failed, as a snake_case code the API shows
 * (preview answers 422 with it) and a message a person can act on.
 */
export type FeedErrorCode =
  | 'feed_unreachable'
  | 'feed_timeout'
  | 'feed_http_error'
  | 'feed_too_large'
  | 'not_a_feed'
  | 'file_unreadable'
  | 'file_invalid';

export class FeedError extends Error {
  constructor(
    readonly code: FeedErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FeedError';
  }
}
