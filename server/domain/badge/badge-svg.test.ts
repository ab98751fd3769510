import { describe, expect, it } from 'vitest';
import { renderBadge, textWidth } from './badge-svg';
import { badgeTokenMatches, healthColor, newBadgeToken } from './rules';

describe('renderBadge', () => {
  it('draws a flat two-part badge whose width follows its text', () => {
    const svg = renderBadge('desk health', '92/100', '#4c1');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('aria-label="desk health: 92/100"');
    expect(svg).toContain('<title>desk health: 92/100</title>');
    expect(svg).toContain('fill="#4c1"');
    const width = Number(/^<svg[^>]* width="(\d+)"/.exec(svg)?.[1]);
    expect(width).toBe(textWidth('desk health') + textWidth('92/100') + 20);
    expect(renderBadge('desk health', 'unknown', '#9f9f9f').length).toBeGreaterThan(0);
    expect(textWidth('mmmm')).toBeGreaterThan(textWidth('iiii'));
  });

  it('escapes every text and the colour', () => {
    const svg = renderBadge('<script>alert(1)</script>', 'a & "b" \'c\'', '"/><x');
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<x');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('a &amp; &quot;b&quot; &#39;c&#39;');
    expect(svg).toContain('fill="&quot;/&gt;&lt;x"');
  });
});

describe('badge token rules', () => {
  it('tokens carry 192 random bits behind the dbt_ prefix and differ each time', () => {
    const a = newBadgeToken();
    expect(a).toMatch(/^dbt_[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(a.slice(4), 'base64url')).toHaveLength(24);
    expect(newBadgeToken()).not.toBe(a);
  });

  it('compares exactly', () => {
    expect(badgeTokenMatches('dbt_abc', 'dbt_abc')).toBe(true);
    expect(badgeTokenMatches('dbt_abd', 'dbt_abc')).toBe(false);
    expect(badgeTokenMatches('dbt_ab', 'dbt_abc')).toBe(false);
    expect(badgeTokenMatches('', 'dbt_abc')).toBe(false);
  });

  it('colours go from green to red as the score falls', () => {
    expect([100, 90, 89, 75, 74, 50, 49, 25, 24, 0].map(healthColor)).toEqual(['#4c1', '#4c1', '#97ca00', '#97ca00', '#dfb317', '#dfb317', '#fe7d37', '#fe7d37', '#e05d44', '#e05d44']);
  });
});
