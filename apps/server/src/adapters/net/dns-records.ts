/**
 * DNS look-ups for domain verification: TXT, MX and CNAME through a node:dns Resolver on the
 * configured servers (DNS_SERVERS: "ip" or "ip:port"; the system's resolvers when empty), with a
 * timeout. A name that does not exist, has no such record or cannot be answered in time gives an
 * empty list: to the user the record is simply still pending.
 */
import { Resolver } from 'node:dns/promises';

export interface DnsLookups {
  /** Each TXT record's strings joined (long DKIM keys are split into 255-byte strings). */
  txt(name: string): Promise<string[]>;
  mx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
  cname(name: string): Promise<string[]>;
}

const TIMEOUT_MS = 3_000;
const TRIES = 2;

export function dnsLookups(servers: readonly string[]): DnsLookups {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  if (servers.length) resolver.setServers([...servers]);
  const orEmpty = async <T>(work: Promise<T[]>): Promise<T[]> => {
    try {
      return await work;
    } catch {
      return [];
    }
  };
  return {
    txt: async (name) => (await orEmpty(resolver.resolveTxt(name))).map((chunks) => chunks.join('')),
    mx: (name) => orEmpty(resolver.resolveMx(name)),
    cname: (name) => orEmpty(resolver.resolveCname(name)),
  };
}

/** Host names compare without case and without the root's trailing dot. */
export const sameHost = (a: string, b: string): boolean => a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();
