import { describe, expect, it } from 'vitest';
import { wizardPageKey } from './wizardPageKey.ts';

const ID = 'AbCdEfGhIjKlMnOpQrSt';
const OTHER = 'ZyXwVuTsRqPoNmLkJiHg';

describe('the wizard page key', () => {
  it('keeps the page of /wizard/new when the upload there turns the address into the new template', () => {
    const fresh = wizardPageKey(null, 'new', null);
    expect(wizardPageKey(fresh, ID, ID).key).toBe(fresh.key);
  });

  it('starts a new page for any other address change', () => {
    const fresh = wizardPageKey(null, 'new', null);
    // An id other than the one just made (typed, or a link followed) is another template.
    expect(wizardPageKey(fresh, OTHER, ID).key).not.toBe(fresh.key);
    const existing = wizardPageKey(null, ID, null);
    expect(wizardPageKey(existing, OTHER, ID).key).not.toBe(existing.key);
    expect(wizardPageKey(existing, 'new', ID).key).not.toBe(existing.key);
  });

  it('returns the same identity while the address stays', () => {
    const page = wizardPageKey(null, ID, ID);
    expect(wizardPageKey(page, ID, null)).toBe(page);
  });
});
