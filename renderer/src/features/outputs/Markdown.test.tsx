import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks, safeHref } from './Markdown';

const html = (source: string) => render(<Markdown source={source} />).container.innerHTML;

describe('Markdown', () => {
  it('splits headings, paragraphs, lists, quotes, code and rules', () => {
    const blocks = parseBlocks('# What happened\n\nA competitor\nlaunched.\n\n- one\n- two\n  continued\n\n3. third\n4. fourth\n\n> quoted\n> more\n\n```\nconst x = 1;\n```\n---');
    expect(blocks).toEqual([
      { type: 'heading', level: 1, text: 'What happened' },
      { type: 'paragraph', text: 'A competitor launched.' },
      { type: 'list', ordered: false, start: 1, items: ['one', 'two continued'] },
      { type: 'list', ordered: true, start: 3, items: ['third', 'fourth'] },
      { type: 'quote', text: 'quoted more' },
      { type: 'code', text: 'const x = 1;' },
      { type: 'rule' },
    ]);
  });

  it('renders inline emphasis, code and links, headings one level under the page title', () => {
    expect(html('## Next **steps** and *why*: `npm test`, see [the post](https://example.com/a) or [a signal](/signals)')).toBe(
      '<div class="markdown"><h3>Next <strong>steps</strong> and <em>why</em>: <code>npm test</code>, see <a href="https://example.com/a" target="_blank" rel="noopener noreferrer">the post</a> or <a href="/signals">a signal</a></h3></div>',
    );
  });

  it('never injects HTML and drops unsafe link targets to text', () => {
    const out = html('<img src=x onerror=alert(1)> [click](javascript:alert(1)) **<b>x</b>**');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt; <span>click</span>');
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('leaves snake_case words and escaped stars alone', () => {
    expect(html('a snake_case_name and \\*not em\\*')).toBe('<div class="markdown"><p>a snake_case_name and *not em*</p></div>');
  });
});

describe('Markdown with a title', () => {
  it('leaves out a leading heading that repeats the title, keeps any other', () => {
    expect(render(<Markdown source={'# Weekly brief\n\nBody'} title="Weekly brief" />).container.innerHTML).toBe('<div class="markdown"><p>Body</p></div>');
    expect(render(<Markdown source={'# Other\n\nBody'} title="Weekly brief" />).container.innerHTML).toBe('<div class="markdown"><h2>Other</h2><p>Body</p></div>');
  });
});
