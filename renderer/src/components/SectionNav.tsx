/** Scrolls to a section of the page without touching the URL fragment (it carries the sign-in token on first load). */
export function scrollToSection(id: string, behavior: ScrollBehavior = 'smooth'): void {
  document.getElementById(id)?.scrollIntoView?.({ behavior, block: 'start' });
}

/** How long a deep-linked section is held in place while the sections above it load. */
export const HOLD_SECTION_MS = 3000;
const USER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Scrolls to a deep-linked section and keeps it at the top while the sections above it load their
 * own data and grow (otherwise /settings/layout lands on the digest preview, and a click aimed at
 * the section lands on whatever moved under the pointer), until the user scrolls, types or clicks,
 * or HOLD_SECTION_MS passed. Returns the function that stops holding it.
 */
export function holdSection(id: string): () => void {
  scrollToSection(id, 'auto');
  const parent = document.getElementById(id)?.parentElement;
  if (!parent || typeof ResizeObserver === 'undefined') return () => {};
  const observer = new ResizeObserver(() => scrollToSection(id, 'auto'));
  observer.observe(parent);
  const release = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const event of USER_MOVES) window.removeEventListener(event, release);
  };
  const timer = setTimeout(release, HOLD_SECTION_MS);
  for (const event of USER_MOVES) window.addEventListener(event, release, { passive: true });
  return release;
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
