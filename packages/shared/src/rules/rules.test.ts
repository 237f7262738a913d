/** The shared rules' decisions, where the web app and the server used to disagree (issue 9). */
import { describe, expect, it } from 'vitest';
import {
  accountPasswordProblem, addressesOf, columnIndex, countSelectedRows, firstUnknownTag, hasColumn, htmlColumnTags, identifierProblem, isMessageEmpty,
  isValidReplyTo, parsePort, parseServerName, parseSubdomain, replyToColumn, rowPicker, senderEmailProblem, smtpFieldProblems,
} from '../index.ts';

describe('column matching', () => {
  const headers = ['Name', 'Email ', 'City'];
  it('takes the exact heading first, else one equal without case and surrounding spaces', () => {
    expect(columnIndex(headers, 'City')).toBe(2);
    expect(columnIndex(headers, 'city')).toBe(2);
    expect(columnIndex(headers, ' EMAIL')).toBe(1);
    expect(columnIndex(['name', 'Name'], 'Name')).toBe(1);
    expect(columnIndex(headers, 'Town')).toBeUndefined();
    expect(hasColumn(headers, 'NAME')).toBe(true);
  });

  it('names the first tag that matches no heading', () => {
    expect(firstUnknownTag('{{name}}-{{Town}}-{{Zip}}', headers)).toBe('Town');
    expect(firstUnknownTag('{{ city }}', headers)).toBeNull();
  });
});

describe('empty message', () => {
  it('counts an image-only message as content', () => {
    expect(isMessageEmpty('<p><img src="https://example.com/a.png"></p>')).toBe(false);
  });

  it('is empty when every block is blank', () => {
    for (const html of ['', '<p></p>', '<p> <br></p><p>&nbsp;</p>\n<ul><li><p></p></li></ul>', '<p>&#160;\u200b</p><!-- note -->', '<style>p{}</style><p></p>']) {
      expect(isMessageEmpty(html), html).toBe(true);
    }
    expect(isMessageEmpty('<p>Hi</p>')).toBe(false);
  });

  it('reads tags in HTML as the mailing fills them', () => {
    expect(htmlColumnTags('<p>{{A &amp; B}} and {{ First }}</p>')).toEqual(['A & B', 'First']);
  });
});

describe('sender fields', () => {
  it('accepts identifiers with combining marks', () => {
    expect(identifierProblem('Jose\u0301')).toBeNull();
    expect(identifierProblem('  ')).toBe('EmptyIdentifierError');
    expect(identifierProblem('Ada <admin>')).toBe('IdentifierError');
  });

  it('takes ports of 1 to 5 digits from 1 to 99999', () => {
    expect(parsePort(' 587 ')).toBe(587);
    expect(parsePort(465)).toBe(465);
    for (const bad of ['000465', '0', '100000', '4.5', 'abc', '', 25.5, 0]) expect(parsePort(bad), String(bad)).toBeNull();
  });

  it('normalises server names as resolvers read them', () => {
    expect(parseServerName('SMTP.Example.com.')).toBe('smtp.example.com');
    expect(parseServerName('127.1')).toBe('127.0.0.1');
    expect(parseServerName('::1')).toBe('[::1]');
    expect(parseServerName('münchen.de')).toBe('xn--mnchen-3ya.de');
    for (const bad of ['', 'smtp_1.example.com', 'a b', 'smtp.example.com:25', 'user@host', '256.1.1.1', 'a..b']) expect(parseServerName(bad), bad).toBeNull();
  });

  it('checks subdomains label by label, lower-cased, with the default when absent', () => {
    expect(parseSubdomain(undefined, 'example.com')).toEqual({ subdomain: 'sheaf' });
    expect(parseSubdomain('Mail.Out-1', 'example.com')).toEqual({ subdomain: 'mail.out-1' });
    for (const bad of ['', '-mail', 'mail..out', 'mail_out']) expect(parseSubdomain(bad, 'example.com'), bad).toEqual({ error: 'SubdomainError' });
  });

  it('answers the documented error names in the documented order', () => {
    expect(senderEmailProblem(' ')).toBe('EmptyEmailError');
    expect(senderEmailProblem('ada@')).toBe('EmailError');
    expect(smtpFieldProblems({ server: '', port: '', username: ' ', password: '' })).toEqual({
      server: 'ServerError', port: 'PortError', username: 'UsernameError', password: 'PasswordError',
    });
    expect(smtpFieldProblems({ server: 'smtp.example.com', port: 465, username: 'a', password: '' }, true)).toEqual({});
  });
});

describe('row selection', () => {
  const sheet = { firstRow: 2, lastRow: 11 };
  it('reads a range either way round and counts only the sheet\'s data rows', () => {
    expect(countSelectedRows({ kind: 'range', startRow: 9, endRow: 4 }, sheet)).toBe(6);
    expect(countSelectedRows({ kind: 'range', startRow: 1, endRow: 100 }, sheet)).toBe(10);
    expect(countSelectedRows({ kind: 'range', startRow: 50, endRow: 60 }, sheet)).toBe(0);
    expect(countSelectedRows({ kind: 'specific', specificRowsNumbers: '1, 3, 5-7, x' }, sheet)).toBe(4);
    expect(countSelectedRows({ kind: 'all' }, sheet)).toBe(10);
    const picked = rowPicker({ kind: 'range', startRow: 9, endRow: 4 }, 11);
    expect([3, 4, 9, 10].map(picked)).toEqual([false, true, true, false]);
  });
});

describe('recipients', () => {
  it('reads several addresses per cell, "Name <address>" included, each valid one once', () => {
    expect(addressesOf('Ann <ann@example.com>; bob@example.org, ANN@example.com nope')).toEqual({
      valid: ['ann@example.com', 'bob@example.org'], invalid: ['nope'],
    });
  });

  it('takes a reply-to address or exactly one column tag', () => {
    expect(isValidReplyTo('')).toBe(true);
    expect(isValidReplyTo('help@example.com')).toBe(true);
    expect(isValidReplyTo('{{ Email }}')).toBe(true);
    expect(replyToColumn('{{ Email }}')).toBe('Email');
    expect(isValidReplyTo('{{A}}{{B}}')).toBe(false);
    expect(isValidReplyTo('help@')).toBe(false);
  });
});

describe('account passwords', () => {
  it('needs 6 characters, not a common password nor the address', () => {
    expect(accountPasswordProblem('', 'ada@example.com')).toBe('empty');
    expect(accountPasswordProblem('12345', 'ada@example.com')).toBe('short');
    expect(accountPasswordProblem('QWERTY123', 'ada@example.com')).toBe('common');
    expect(accountPasswordProblem('Ada@Example.com', 'ada@example.com')).toBe('common');
    expect(accountPasswordProblem('correct horse', 'ada@example.com')).toBeNull();
  });
});
