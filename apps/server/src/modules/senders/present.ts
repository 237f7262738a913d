/** A sender row as the client sees it (SenderSchema): secrets are never part of it. */
import type { DnsRecord, Sender } from '@sheaf/shared';
import type { SenderRow } from './repository.ts';

const recordOk = (records: DnsRecord[], purpose: DnsRecord['purpose']) => records.some((record) => record.purpose === purpose && record.status === 'success');

/** local part of the real address @ the product's mail domain (docs/email.md#senders). */
export function spoofAddress(email: string, mailDomain: string): string {
  return `${email.slice(0, email.lastIndexOf('@'))}@${mailDomain}`;
}

export function presentSender(row: SenderRow, mailDomain: string): Sender {
  const records = row.method === 'domain' ? row.dns_records : [];
  return {
    id: row.id,
    email: row.email,
    method: row.method,
    isVerified: row.is_verified,
    isDkimVerified: recordOk(records, 'dkim'),
    isSpfVerified: recordOk(records, 'spf'),
    isCnameVerified: recordOk(records, 'cname'),
    isMxaVerified: recordOk(records, 'mxa'),
    isMxbVerified: recordOk(records, 'mxb'),
    identifier: row.method === 'spoof' ? row.identifier : null,
    spoofAddress: row.method === 'spoof' ? spoofAddress(row.email, mailDomain) : null,
    subdomain: row.method === 'domain' ? row.subdomain : null,
    dnsRecords: records,
    notifications: row.notifications,
    server: row.method === 'smtp' ? row.server : null,
    port: row.method === 'smtp' ? row.port : null,
    username: row.method === 'smtp' ? row.username : null,
    hasPassword: row.method === 'smtp' && row.password !== null,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    verifiedAt: row.verified_at ? row.verified_at.toISOString() : null,
  };
}
