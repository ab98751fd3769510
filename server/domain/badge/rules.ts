import crypto from 'node:crypto';

/**
 * Rules of the desk's health badge (GET /api/v1/badge.svg?token=...). The badge URL ends up in
 * public READMEs, so it never carries the workspace token: it carries a dedicated read-only token
 * that opens nothing but the badge. 192 random bits (base64url) behind a recognisable prefix.
 */
export const BADGE_TOKEN_PREFIX = 'dbt_';
export const BADGE_TOKEN_BYTES = 24;
/** Longest `token` query value looked at; anything longer cannot be a badge token. */
export const MAX_BADGE_TOKEN_LENGTH = 200;

/**
 * Cache-Control of the badge: `no-cache` (a cache may keep it but must ask again before reuse),
 * so a README shows today's score and a revoked or rotated token stops showing it at once.
 */
export const BADGE_CACHE_CONTROL = 'no-cache';

export function newBadgeToken(): string {
  return `${BADGE_TOKEN_PREFIX}${crypto.randomBytes(BADGE_TOKEN_BYTES).toString('base64url')}`;
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();

/** Constant-time comparison (hashing first hides the length too). */
export function badgeTokenMatches(given: string, expected: string): boolean {
  return crypto.timingSafeEqual(sha256(given), sha256(expected));
}

/** The badge's colour for a health score: shields.io's palette, greener the healthier. */
export function healthColor(score: number): string {
  if (score >= 90) return '#4c1';
  if (score >= 75) return '#97ca00';
  if (score >= 50) return '#dfb317';
  if (score >= 25) return '#fe7d37';
  return '#e05d44';
}
export const UNKNOWN_COLOR = '#9f9f9f';
export const BADGE_LABEL = 'desk health';
