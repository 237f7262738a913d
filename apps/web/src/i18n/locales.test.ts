// @vitest-environment node
/**
 * The shell's namespaces read fully in every language: same keys as English, the same {{variables}}
 * and <tags>, nothing left empty and nothing left in English (except names that are the same in
 * that language, listed below).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sheaf/shared';

const NAMESPACES = ['common', 'auth', 'navbar', 'help', 'errors'] as const;
/** Product and plan names some languages keep as they are. */
const SAME_AS_ENGLISH = new Set(['navbar:plans.Pro', 'navbar:plans.Enterprise', 'navbar:plans.Offline', 'navbar:plan.upgrade', 'help:contact.title']);

type Tree = { [key: string]: string | string[] | Tree };

function load(language: string, namespace: string): Tree {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../locales/${language}/${namespace}.json`, import.meta.url)), 'utf8')) as Tree;
}

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else if (Array.isArray(value)) value.forEach((item, index) => (out[`${path}.${index}`] = item));
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

const markers = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>|\{(\w+)\}/g)].map((match) => match[0].replace(/\s/g, '')).sort();

describe('shell translations', () => {
  for (const namespace of NAMESPACES) {
    const english = flatten(load('en', namespace));
    for (const language of LANGUAGES.filter((lng) => lng !== 'en')) {
      it(`${language}/${namespace}.json matches English key for key`, () => {
        const translated = flatten(load(language, namespace));
        expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
        for (const [key, text] of Object.entries(english)) {
          expect(translated[key].trim(), `${language} ${namespace}:${key}`).not.toBe('');
          expect(markers(translated[key]), `${language} ${namespace}:${key}`).toEqual(markers(text));
          if (!SAME_AS_ENGLISH.has(`${namespace}:${key}`)) expect(translated[key], `${language} ${namespace}:${key} is English`).not.toBe(text);
        }
      });
    }
  }

  it('English registration messages are the documented words', () => {
    const validation = flatten(load('en', 'auth'));
    expect(validation['validation.firstNameRequired']).toBe('First name is required');
    expect(validation['validation.lastNameRequired']).toBe('Last name is required');
    expect(validation['validation.emailRequired']).toBe('Please enter an email address');
    expect(validation['validation.emailInvalid']).toBe('Invalid email address');
    expect(validation['validation.passwordTooShort']).toBe('Password must be at least 6 characters long');
    expect(validation['validation.passwordsDoNotMatch']).toBe('Passwords do not match');
    expect(validation['validation.acceptTermsRequired']).toBe('accept terms required');
    expect(validation['validation.emailInUse']).toBe('Email address is already in use by another user.');
  });
});
