/** Text with its matches in <mark>: the API sends plain text and offsets, so no markup from content is ever rendered. */
export function Marked({ text, marks }: { text: string; marks: readonly { start: number; end: number }[] }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [i, m] of [...marks].sort((a, b) => a.start - b.start).entries()) {
    if (m.start < at || m.end > text.length || m.end <= m.start) continue;
    if (m.start > at) parts.push(text.slice(at, m.start));
    parts.push(<mark key={i}>{text.slice(m.start, m.end)}</mark>);
    at = m.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
