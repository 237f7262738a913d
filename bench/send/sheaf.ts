/**
 * Sheaf's sending path (modules/email): the composer (hand-built MIME, the shared PDF prefix's base64
 * encoded once), 8 SMTP channels sending the raw bytes, each row's PDF read from the ZIP by offset.
 * The database updates of a real mailing are left out, as the peer has none. `<port> <count> <zip> <index.json>`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LocalBlobStore } from '../../apps/server/src/adapters/blobs/local.ts';
import { createComposer } from '../../apps/server/src/modules/email/compose.ts';
import { newMessageId } from '../../apps/server/src/modules/email/mailing-prepare.ts';
import { SmtpChannel } from '../../apps/server/src/modules/email/smtp-channel.ts';
import { readStoredEntry } from '../../apps/server/src/modules/email/zip-documents.ts';
import type { SenderDelivery } from '../../apps/server/src/modules/senders/delivery-types.ts';
import { printResult } from '../peers/candidate.ts';
import { SUBJECT, type SendDocument } from './inputs.ts';

const [port, count, zipPath, indexPath] = process.argv.slice(2) as [string, string, string, string];
const documents = (JSON.parse(await readFile(indexPath, 'utf8')) as SendDocument[]).slice(0, Number(count));
const zip = await new LocalBlobStore(path.dirname(zipPath)).openReader(path.basename(zipPath));
const route = { kind: 'smtp' as const, address: '127.0.0.1', port: Number(port), secure: false, servername: 'localhost' };
const delivery: SenderDelivery = {
  senderId: 'bench', method: 'smtp', from: { name: 'Northwind Billing', address: 'billing@northwind.example' }, replyTo: null,
  returnPathDomain: null, dkim: null, route, notifications: 'failed', ownerEmail: 'owner@northwind.example',
};
const composer = createComposer(
  {
    senderId: 'bench', fromName: '', subject: '', recipientsColumn: 'Email', ccColumn: null, bccColumn: null, replyTo: '', attachments: [],
    content: '<p>Dear {{First}} {{Last}},</p><p>your statement is attached. The amount due is {{Amount}}.</p><p><a href="https://northwind.example/pay">Pay online</a></p>',
  },
  delivery,
  { mailDomain: 'sheaf.localhost', trackingBaseUrl: 'http://localhost:3000', trackingKey: new Uint8Array(32), attachments: [] },
);
const started = performance.now();
let next = 0;
let bytesOut = 0;
await Promise.all(Array.from({ length: 8 }, async () => {
  const channel = new SmtpChannel(route, 'sheaf.localhost');
  while (next < documents.length) {
    const doc = documents[next++]!;
    const pdf = await readStoredEntry(zip, doc.offset, doc.size, doc.fileName);
    const message = await composer.compose(
      { id: newMessageId(), to_addresses: [doc.to], cc_addresses: [], bcc_addresses: [], subject: SUBJECT(doc), vars: { First: doc.first, Last: doc.last, Amount: doc.amount }, file_name: doc.fileName },
      pdf,
    );
    const outcome = await channel.send({ from: message.envelopeFrom, to: message.recipients, envelopeId: 'bench' }, message.raw);
    if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${outcome.reply}`);
    bytesOut += pdf.length;
  }
  channel.close();
}));
const seconds = (performance.now() - started) / 1000;
await zip.close();
printResult({ workload: 'send', tool: 'sheaf', units: documents.length, unitName: 'msgs', seconds, bytesOut, note: `shared PDF prefix encoded once, reused ${composer.reusedPrefixes} times` });
