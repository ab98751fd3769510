/** Pure helpers of the push URLs (the webhook URL and a source's scoped ingest URLs). */

/** The shell command that posts one signal to a webhook URL (single quotes: safe to paste in sh, bash, zsh). */
export function curlExample(url: string): string {
  return `curl -X POST '${url.replace(/'/g, `'\\''`)}' -H 'content-type: application/json' -d '{"title":"Hello","detail":"from a script"}'`;
}

/**
 * The webhook URL with its token (the last path segment) hidden but for its last 4 characters,
 * for showing on screen: the token lets anyone add signals and also authenticates the API.
 */
export function maskToken(url: string): string {
  const slash = url.lastIndexOf('/');
  const token = url.slice(slash + 1);
  if (slash < 0 || token.length <= 4) return url;
  return `${url.slice(0, slash + 1)}${'•'.repeat(Math.min(12, token.length - 4))}${token.slice(-4)}`;
}
