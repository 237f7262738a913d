import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sheaf/shared';
import { resetPasswordMail } from './mail-texts.ts';

describe('password-reset mail texts', () => {
  const link = 'https://sheaf.example/resetPassword?token=abc_DEF-123';

  it('every language carries the link and the name, in its own words', () => {
    const subjects = new Set<string>();
    const texts = new Set<string>();
    for (const language of LANGUAGES) {
      const mail = resetPasswordMail(language, link, 'Ada');
      expect(mail.text, language).toContain(`\n${link}\n`);
      expect(mail.text, language).toContain('Ada');
      subjects.add(mail.subject);
      texts.add(mail.text);
    }
    expect(subjects.size).toBe(LANGUAGES.length);
    expect(texts.size).toBe(LANGUAGES.length);
  });

  it('falls back to English for a language it does not know', () => {
    expect(resetPasswordMail('pt', link, 'Ada').subject).toBe(resetPasswordMail('en', link, 'Ada').subject);
  });
});
