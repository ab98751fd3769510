/** Scrolls to a section of the page without touching the URL fragment (it carries the sign-in token on first load). */
export function scrollToSection(id: string, behavior: ScrollBehavior = 'smooth'): void {
  document.getElementById(id)?.scrollIntoView?.({ behavior, block: 'start' });
}

/**
 * A page's table of contents. By default its links only scroll; with `hrefFor` each section has a URL
 * (a real link, middle-click opens it) and `onOpen` navigates there (e.g. /settings/focus).
 */
export function SectionNav({
  label,
  sections,
  hrefFor,
  onOpen = scrollToSection,
}: {
  label: string;
  sections: readonly { id: string; label: string }[];
  hrefFor?: (id: string) => string;
  onOpen?: (id: string) => void;
}) {
  return (
    <nav className="toc" aria-label={label}>
      {sections.map((s) => (
        <a
          key={s.id}
          href={hrefFor ? hrefFor(s.id) : `#${s.id}`}
          className="toc__link"
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            onOpen(s.id);
          }}
        >
          {s.label}
        </a>
      ))}
    </nav>
  );
}
