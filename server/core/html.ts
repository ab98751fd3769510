const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

/**
 * The desk's icon, inline (the UI's own, renderer/index.html): a page without an icon link makes
 * the browser ask for /favicon.ico, a 404 in its console on every public page.
 */
export const ICON_LINK =
  '<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=\'http://www.w3.org/2000/svg\' viewBox=\'0 0 32 32\'%3E%3Crect width=\'32\' height=\'32\' rx=\'8\' fill=\'%233b5bdb\'/%3E%3Ctext x=\'16\' y=\'22\' font-family=\'system-ui,sans-serif\' font-size=\'17\' font-weight=\'700\' fill=\'white\' text-anchor=\'middle\'%3ED%3C/text%3E%3C/svg%3E">';
