/**
 * The peer: nodemailer's pooled SMTP transport (8 connections), one sendMail per row with the row's
 * PDF (read from the ZIP) attached. `<port> <count> <zip> <index.json>`.
 */
import { readFile } from 'node:fs/promises';
import nodemailer from 'nodemailer';
import { LocalBlobStore } from '../../apps/server/src/adapters/blobs/local.ts';
import { readStoredEntry } from '../../apps/server/src/modules/email/zip-documents.ts';
import { printResult } from '../peers/candidate.ts';
import { HTML, SUBJECT, type SendDocument } from './inputs.ts';
import path from 'node:path';

const [port, count, zipPath, indexPath] = process.argv.slice(2) as [string, string, string, string];
const documents = (JSON.parse(await readFile(indexPath, 'utf8')) as SendDocument[]).slice(0, Number(count));
const zip = await new LocalBlobStore(path.dirname(zipPath)).openReader(path.basename(zipPath));
const transport = nodemailer.createTransport({ pool: true, maxConnections: 8, maxMessages: Infinity, host: '127.0.0.1', port: Number(port), secure: false, ignoreTLS: true });
const started = performance.now();
let next = 0;
let bytesOut = 0;
// As many sends in flight as connections, each document read when its turn comes (memory stays flat).
await Promise.all(Array.from({ length: 8 }, async () => {
  while (next < documents.length) {
    const doc = documents[next++]!;
    const pdf = await readStoredEntry(zip, doc.offset, doc.size, doc.fileName);
    const info = await transport.sendMail({
      from: '"Northwind Billing" <billing@northwind.example>',
      to: doc.to,
      subject: SUBJECT(doc),
      html: HTML(doc),
      text: `Dear ${doc.first} ${doc.last},\n\nyour statement is attached. The amount due is ${doc.amount}.`,
      attachments: [{ filename: doc.fileName, content: pdf, contentType: 'application/pdf' }],
    });
    if (!/^250/.test(info.response)) throw new Error(`not accepted: ${info.response}`);
    bytesOut += pdf.length;
  }
}));
const seconds = (performance.now() - started) / 1000;
transport.close();
await zip.close();
printResult({ workload: 'send', tool: 'nodemailer pool (8)', units: documents.length, unitName: 'msgs', seconds, bytesOut });
