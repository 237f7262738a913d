/**
 * A page count as Word prints it with its field's format switches (number-format.ts), as a
 * "Page X of N" footer shows it: `{ NUMPAGES \* roman }` is "iii", not "3".
 */
import { describe, expect, it } from 'vitest';
import { fieldNumberText } from './number-format.ts';

const printed = (switches: string, values: readonly number[]) => values.map((value) => fieldNumberText(value, ` NUMPAGES ${switches} `));

describe('a page count in its field\'s number format', () => {
  it('roman and letters in the case of the switch; digits, with dashes', () => {
    expect(printed('\\* roman', [1, 2, 4, 14, 1994])).toEqual(['i', 'ii', 'iv', 'xiv', 'mcmxciv']);
    expect(printed('\\* ROMAN \\* MERGEFORMAT', [3, 9])).toEqual(['III', 'IX']);
    expect(printed('\\* alphabetic', [1, 3, 26, 27])).toEqual(['a', 'c', 'z', 'aa']);
    expect(printed('\\* ALPHABETIC', [2, 28])).toEqual(['B', 'BB']);
    expect(printed('\\* Arabic', [12])).toEqual(['12']);
    expect(printed('\\* ArabicDash', [2])).toEqual(['- 2 -']);
    expect(printed('\\* MERGEFORMAT', [7])).toEqual(['7']);
    expect(printed('\\* CircleNum', [7])).toEqual(['7']);
    expect(printed('\\*roman', [3])).toEqual(['iii']);
  });

  it('English words, ordinals and hexadecimal', () => {
    expect(printed('\\* CardText', [1, 2, 13, 20, 21, 100, 123, 1000, 2045])).toEqual(['one', 'two', 'thirteen', 'twenty', 'twenty-one', 'one hundred', 'one hundred twenty-three', 'one thousand', 'two thousand forty-five']);
    expect(printed('\\* OrdText', [1, 2, 3, 5, 8, 9, 12, 20, 21, 100])).toEqual(['first', 'second', 'third', 'fifth', 'eighth', 'ninth', 'twelfth', 'twentieth', 'twenty-first', 'one hundredth']);
    expect(printed('\\* Ordinal', [1, 2, 3, 4, 11, 12, 13, 22, 111])).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '22nd', '111th']);
    expect(printed('\\* DollarText', [2])).toEqual(['two and 00/100']);
    expect(printed('\\* Hex', [255])).toEqual(['FF']);
  });

  it('case switches after the format', () => {
    expect(printed('\\* CardText \\* Upper', [2])).toEqual(['TWO']);
    expect(printed('\\* OrdText \\* FirstCap', [21])).toEqual(['Twenty-first']);
    expect(printed('\\* CardText \\* Caps', [102])).toEqual(['One Hundred Two']);
    expect(printed('\\* roman \\* Upper', [4])).toEqual(['IV']);
  });

  it('a \\# picture: its digits, zeros and text', () => {
    expect(printed('\\# "0"', [2])).toEqual(['2']);
    expect(printed('\\# 00', [2, 12])).toEqual(['02', '12']);
    expect(printed('\\# "#,##0"', [1234])).toEqual(['1,234']);
    expect(printed('\\# "00 \'pages\'"', [3])).toEqual(['03 pages']);
  });
});
