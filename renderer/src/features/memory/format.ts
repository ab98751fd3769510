/** Display helpers of the memory area. */

/** USD with cents, and finer below a cent (attributed costs are often fractions of a cent). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (Math.abs(usd) < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** Tags typed as a comma or space list: trimmed, lowercased, duplicates folded (the API checks the form). */
export function parseTags(input: string): string[] {
  return [...new Set(input.split(/[,\s]+/).map((t) => t.trim().toLowerCase()).filter(Boolean))];
}
