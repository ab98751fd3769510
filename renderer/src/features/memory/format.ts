/** Display helpers of the memory area. */

/** Tags typed as a comma or space list: trimmed, lowercased, duplicates folded (the API checks the form). */
export function parseTags(input: string): string[] {
  return [...new Set(input.split(/[,\s]+/).map((t) => t.trim().toLowerCase()).filter(Boolean))];
}
