import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate, useRouter } from '../lib/router';

/** An in-app link: a real <a href> (middle-click, copy link work) that navigates without a reload. */
export function Link({ to, onClick, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const current = useRouter((s) => s.path);
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} aria-current={current === to ? 'page' : undefined} onClick={handle} {...rest} />;
}
