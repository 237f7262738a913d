import { describe, expect, it } from 'vitest';
import { contentSyntaxError } from './contentCheck.ts';

const check = (text: string) => contentSyntaxError(new TextEncoder().encode(text));

describe('contentSyntaxError', () => {
  it('accepts ordinary content, nested strings, dictionaries, comments and inline images', () => {
    expect(check('BT /F1 12 Tf (Hello \\(world\\) (nested)) Tj [<48 65> -20 (x)] TJ ET % a comment (\n')).toBeUndefined();
    expect(check('/P << /MCID 0 >> BDC EMC')).toBeUndefined();
    expect(check('BI /W 2 /H 1 /BPC 8 /CS /G ID \u0000((<<[ EI Q')).toBeUndefined();
  });

  it('names the first lexical error a reader would stop at', () => {
    expect(check('BT (unterminated Tj ET')).toBe('unterminated string');
    expect(check('BT <48zz> Tj ET')).toBe('bad hex string');
    expect(check('BT <4865 Tj ET')).toBe('bad hex string');
    expect(check('[1 2 TJ')).toBe('unbalanced [ or <<');
    expect(check('] TJ')).toBe('unbalanced ]');
    expect(check('BI /W 1 ID xxxx')).toBe('unterminated inline image');
  });
});
