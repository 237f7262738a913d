// @vitest-environment node
/** Changes to the user: the server's answer replaces the cached user the navbar and pages show. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { User } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { changeEmailMutation, updateMeMutation } from './api.ts';

const user = { uid: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', view: 'grid', counter: 3 } as unknown as User;

afterEach(() => vi.restoreAllMocks());

describe('user mutations', () => {
  it('puts the answer to a profile or view change into the cached user', async () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.me, user);
    const call = vi.spyOn(api, 'call').mockResolvedValue({ ...user, view: 'list' } as never);
    await new MutationObserver(client, updateMeMutation(client)).mutate({ view: 'list' });
    expect(call).toHaveBeenCalledWith('updateMe', { body: { view: 'list' } });
    expect(client.getQueryData<User>(queryKeys.me)?.view).toBe('list');
  });

  it('puts the answer to an address change into the cached user', async () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.me, user);
    vi.spyOn(api, 'call').mockResolvedValue({ ...user, email: 'countess@example.com' } as never);
    await new MutationObserver(client, changeEmailMutation(client)).mutate({ email: 'countess@example.com', password: 'x' });
    expect(client.getQueryData<User>(queryKeys.me)?.email).toBe('countess@example.com');
  });
});
