import { describe, expect, it } from 'vitest';
import { visibleAccountTabs } from './accountTabs.ts';

describe('account tabs', () => {
  it('shows every area to account holders, in the documented order (docs/web-app.md)', () => {
    expect(visibleAccountTabs(false).map((tab) => tab.path)).toEqual(
      ['/account', '/users', '/senders', '/email-report', '/api-keys', '/integrations', '/billing'],
    );
  });

  it('hides users, API keys, integrations and billing from child users', () => {
    expect(visibleAccountTabs(true).map((tab) => tab.key)).toEqual(['account', 'senders', 'emailReport']);
  });
});
