import { describe, expect, it } from 'vitest';
import { LANGUAGES, formatLicenceKey } from '@sheaf/shared';
import { licenceMail } from './mail-texts.ts';

describe('licence mail texts', () => {
  const facts = { key: '0123456789ABCDEFGHJKMNPQR', machineLimit: 3, expiresAt: new Date('2031-04-30T10:00:00Z') };

  it('every language carries the key in groups, the machine limit, the expiry and the desktop steps, in its own words', () => {
    const subjects = new Set<string>();
    for (const language of LANGUAGES) {
      const mail = licenceMail(language, facts);
      expect(mail.text, language).toContain(`\n    ${formatLicenceKey(facts.key)}\n`);
      expect(mail.text, language).toContain('3');
      expect(mail.text, language).toMatch(/2031/);
      expect(mail.text, language).toMatch(/30/);
      expect(mail.text, language).toContain('Sheaf Desktop');
      subjects.add(mail.subject);
    }
    expect(subjects.size).toBe(LANGUAGES.length);
    expect(licenceMail('en', facts).text).toContain('on 3 computers and is valid until 30 April 2031');
    expect(licenceMail('en', { ...facts, machineLimit: 1 }).text).toContain('on 1 computer and');
    expect(licenceMail('de', facts).text).toContain('gilt bis zum 30. April 2031');
  });

  it('falls back to English for a language it does not know', () => {
    expect(licenceMail('pt', facts)).toEqual(licenceMail('en', facts));
  });
});
