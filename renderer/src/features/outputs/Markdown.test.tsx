import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, safeHref } from './Markdown';

const html = (source: string, title?: string) => render(<Markdown source={source} title={title} />).container.innerHTML.replace(/\n/g, '');

describe('Markdown', () => {
  it('renders headings (one level under the page title), paragraphs, lists, quotes, code and rules', () => {
    const out = html('# What happened\n\nA competitor\nlaunched.\n\n- one\n- two\n\n3. third\n4. fourth\n\n> quoted\n\n```\nconst x = 1;\n```\n\n---');
    expect(out).toBe(
      '<div class="markdown"><h2>What happened</h2><p>A competitorlaunched.</p><ul><li>one</li><li>two</li></ul><ol start="3"><li>third</li><li>fourth</li></ol><blockquote><p>quoted</p></blockquote><pre><code>const x = 1;</code></pre><hr></div>',
    );
  });

  it('renders inline emphasis, code and links', () => {
    expect(html('## Next **steps** and *why*: `npm test`, see [the post](https://example.com/a) or [a signal](/signals)')).toBe(
      '<div class="markdown"><h2>Next <strong>steps</strong> and <em>why</em>: <code>npm test</code>, see <a href="https://example.com/a" target="_blank" rel="noopener noreferrer">the post</a> or <a href="/signals">a signal</a></h2></div>',
    );
  });

  it('never injects HTML, shows it as text, and drops unsafe link targets and images to text', () => {
    const out = html('<img src=x onerror=alert(1)> [click](javascript:alert(1)) **<b>x</b>** ![a chart](https://tracker.example/p.png)\n\n<script>alert(1)</script>');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('javascript:');
    expect(out).not.toContain('tracker.example');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt; <span>click</span>');
    expect(out).toContain('<span>a chart</span>');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('starts headings at h2 and never skips a level, however the text wrote them', () => {
    expect(html('### Context\n\n##### Detail\n\n#### More\n\n### Next')).toBe('<div class="markdown"><h2>Context</h2><h3>Detail</h3><h3>More</h3><h2>Next</h2></div>');
    expect(html('#### Only\n\n# Top\n\n###### Deep')).toBe('<div class="markdown"><h2>Only</h2><h2>Top</h2><h3>Deep</h3></div>');
  });

  it('leaves snake_case words and escaped stars alone', () => {
    expect(html('a snake_case_name and \\*not em\\*')).toBe('<div class="markdown"><p>a snake_case_name and *not em*</p></div>');
  });
});

describe('Markdown with a title', () => {
  it('leaves out a leading heading that repeats the title, keeps any other', () => {
    expect(html('# Weekly brief\n\nBody', 'Weekly brief')).toBe('<div class="markdown"><p>Body</p></div>');
    expect(html('# Other\n\nBody', 'Weekly brief')).toBe('<div class="markdown"><h2>Other</h2><p>Body</p></div>');
  });
});
