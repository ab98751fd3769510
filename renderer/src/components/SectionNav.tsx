/** Scrolls to a section of the page without touching the URL fragment (it carries the sign-in token on first load). */
export function scrollToSection(id: string): void {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/** A page's table of contents: links to its sections that scroll rather than navigate. */
export function SectionNav({ label, sections }: { label: string; sections: readonly { id: string; label: string }[] }) {
  return (
    <nav className="toc" aria-label={label}>
      {sections.map((s) => (
        <a
          key={s.id}
          href={`#${s.id}`}
          className="toc__link"
          onClick={(e) => {
            e.preventDefault();
            scrollToSection(s.id);
          }}
        >
          {s.label}
        </a>
      ))}
    </nav>
  );
}
