/**
 * The "Password to edit" hint tells what the engine's encryption really grants without the modify
 * password (READ_ONLY_PERMISSIONS: print at full quality and copy; no changes, form filling,
 * comments or page assembly). It used to say printing needed the password, which was not true.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sheaf/shared';
import { READ_ONLY_PERMISSIONS } from '../../../../../packages/engine/src/security/permissions.ts';

const locales = import.meta.glob<{ password: { modifyHint: string } }>('../../locales/*/wizard.json', { eager: true, import: 'default' });
const hint = (language: string) => locales[`../../locales/${language}/wizard.json`]!.password.modifyHint;

/** The earlier hints, which claimed unrestricted printing needs the modify password. */
const UNTRUE = ['Needed to change or print without restrictions.', 'Zum Ändern oder uneingeschränkten Drucken nötig.', 'Nécessaire pour modifier ou imprimer sans restriction.', 'Necesaria para modificar o imprimir sin restricciones.', '修改或无限制打印时需要。'];

describe('the modify-password hint', () => {
  it('matches what the engine grants: printing and copying stay open, changes need the password', () => {
    expect(READ_ONLY_PERMISSIONS).toMatchObject({ print: true, printHighQuality: true, copy: true, modify: false, annotate: false, fillForms: false, assemble: false });
    const [allowed, locked] = hint('en').split(/, but not /);
    expect(allowed).toMatch(/print/);
    expect(allowed).toMatch(/copy/);
    expect(locked).toMatch(/change/);
    expect(locked).toMatch(/fill in/);
    expect(locked).toMatch(/comment/);
  });

  for (const language of LANGUAGES) {
    it(`${language} no longer says printing needs it`, () => {
      expect(UNTRUE).not.toContain(hint(language));
    });
  }
});
