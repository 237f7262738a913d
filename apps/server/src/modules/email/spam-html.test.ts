/** Reading the editor's HTML the way a reader sees it: visible text, hidden text, links, images. */
import { describe, expect, it } from 'vitest';
import { isWhite, readHtml } from './spam-html.ts';

describe('readHtml', () => {
  it('reads the text a reader sees, with entities decoded and no scripts, styles or comments', () => {
    const facts = readHtml('<html><head><title>T</title><style>p{color:red}</style></head><body><!-- note --><p>Fish &amp; chips&nbsp;for <b>Ann</b>a</p><script>var x = "<p>no</p>";</script><p>&#8364;5 &euro;</p></body></html>');
    expect(facts.text).toBe('Fish & chips for Anna €5 €');
    expect(facts.hiddenText).toBe('');
  });

  it('collects links with their visible text and counts images', () => {
    const facts = readHtml('<p>See <a href="https://example.com/a?x=1&amp;y=2">our <i>site</i></a> <img src="a.png" alt="logo"> <a name="top">anchor</a> <a href=mailto:x@y.example>mail</a>');
    expect(facts.links).toEqual([{ href: 'https://example.com/a?x=1&y=2', text: 'our site' }, { href: 'mailto:x@y.example', text: 'mail' }]);
    expect(facts.images).toBe(1);
    expect(facts.text).not.toContain('logo');
  });

  it('sets apart text hidden by display, visibility, opacity, a tiny font or white on no background', () => {
    const facts = readHtml([
      '<div style="display:none">one</div>', '<p style="visibility: hidden">two</p>', '<span style="opacity:0">three</span>',
      '<span style="font-size:1px">four</span>', '<font color="#fefefe">five</font>', '<div hidden>six</div>',
      '<div style="background:#000"><p style="color:white">shown</p></div>', '<p style="font-size:12px;color:#333">also shown</p>',
    ].join(' '));
    expect(facts.hiddenText).toBe('one two three four five six');
    expect(facts.text).toBe('shown also shown');
  });

  it('copes with unclosed and stray tags like a browser', () => {
    const facts = readHtml('<div><p style="color:#fff">hidden<p>still inside</div></span>after');
    expect(facts.hiddenText).toBe('hidden');
    expect(facts.text).toBe('still inside after');
  });

  it('knows white and near-white colours', () => {
    expect(['white', '#FFF', '#ffffff', '#fafafa', 'rgb(255, 255, 255)', 'rgba(250,250,250,1)'].every(isWhite)).toBe(true);
    expect(['#eee', 'black', 'rgb(200,255,255)', 'transparent'].some(isWhite)).toBe(false);
  });
});
