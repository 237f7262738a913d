/**
 * MIME built by hand for speed: a message is a list of buffers written to the socket as they are.
 * Every line ends in CRLF and no line starts with a dot (headers, boundaries and base64 only), so the
 * bytes need no rewriting on the way. The rows' PDFs all start with the same bytes (the template's),
 * so the base64 of that shared prefix, cut to a multiple of 57 bytes (one 76-character line), is
 * encoded once per mailing and reused for every message.
 */
const LINE_BYTES = 57; // 57 bytes are 76 base64 characters
const MIN_SHARED_PREFIX = 16 * LINE_BYTES;

/** base64 in 76-character lines, each ending in CRLF. */
export function base64Lines(bytes: Uint8Array): Buffer {
  const encoded = Buffer.from(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), 'latin1');
  const lines = Math.ceil(encoded.length / 76);
  const out = Buffer.allocUnsafe(encoded.length + lines * 2);
  let at = 0;
  for (let start = 0; start < encoded.length; start += 76) {
    at += encoded.copy(out, at, start, Math.min(start + 76, encoded.length));
    out[at++] = 0x0d;
    out[at++] = 0x0a;
  }
  return out;
}

/** Length of the common start of two byte arrays. */
function commonPrefixLength(a: Buffer, b: Buffer): number {
  const length = Math.min(a.length, b.length);
  // Compare in blocks with the native comparison, then byte by byte within the first block that differs.
  const block = 4096;
  let at = 0;
  while (at + block <= length && a.compare(b, at, at + block, at, at + block) === 0) at += block;
  while (at < length && a[at] === b[at]) at++;
  return at;
}

/**
 * Encodes documents that share a prefix: the first document is the reference; from the second on,
 * the base64 of the prefix they share is kept and only each document's own tail is encoded.
 */
export class SharedPrefixEncoder {
  private reference: Buffer | undefined;
  private cut = 0;
  private encodedPrefix: Buffer | undefined;
  /** How many documents reused the shared prefix (for tests and the bench). */
  reused = 0;

  encode(document: Buffer): Buffer[] {
    if (!this.reference) {
      this.reference = Buffer.from(document); // a copy: the caller may reuse its buffer
      return [base64Lines(document)];
    }
    if (!this.encodedPrefix) {
      const shared = commonPrefixLength(this.reference, document);
      if (shared < MIN_SHARED_PREFIX) return [base64Lines(document)];
      this.cut = shared - (shared % LINE_BYTES);
      this.encodedPrefix = base64Lines(this.reference.subarray(0, this.cut));
      this.reference = this.reference.subarray(0, this.cut);
    }
    if (document.length < this.cut || document.compare(this.reference, 0, this.cut, 0, this.cut) !== 0) return [base64Lines(document)];
    this.reused += 1;
    const tail = document.subarray(this.cut);
    return tail.length ? [this.encodedPrefix, base64Lines(tail)] : [this.encodedPrefix];
  }
}

const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;

/** A header value in RFC 2047 encoded words where it is not plain ASCII, folded between words. */
export function encodeHeaderText(text: string): string {
  if (ASCII_PRINTABLE.test(text)) return text;
  const words: string[] = [];
  let chunk = '';
  let chunkBytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (chunkBytes + size > 45) {
      words.push(chunk);
      chunk = '';
      chunkBytes = 0;
    }
    chunk += char;
    chunkBytes += size;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`).join('\r\n ');
}

/** "Name" <address>, the name quoted or encoded as needed. */
export function formatAddress(name: string, address: string): string {
  const clean = name.replace(/[\r\n]+/g, ' ').trim();
  if (!clean) return address;
  if (ASCII_PRINTABLE.test(clean)) return `"${clean.replace(/(["\\])/g, '\\$1')}" <${address}>`;
  return `${encodeHeaderText(clean)} <${address}>`;
}

/** Addresses folded one per line, so long lists stay within the line limit. */
export function addressList(addresses: readonly string[]): string {
  return addresses.join(',\r\n ');
}

/** A file name parameter pair: plain when ASCII, else RFC 2231 (filename*) with an encoded-word name. */
export function fileNameParams(fileName: string): { type: string; disposition: string } {
  if (ASCII_PRINTABLE.test(fileName) && !/["\\]/.test(fileName)) return { type: `name="${fileName}"`, disposition: `filename="${fileName}"` };
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return { type: `name="${encodeHeaderText(fileName).replace(/\r\n /g, ' ')}"`, disposition: `filename*=UTF-8''${encoded}` };
}

export interface MimeHeaders {
  from: string;
  to: readonly string[];
  cc: readonly string[];
  replyTo: string | null;
  subject: string;
  messageId: string;
  date: Date;
}

export interface MimeAttachment {
  fileName: string;
  contentType: string;
  /** base64 lines (CRLF-terminated), one or more buffers. */
  encoded: readonly Buffer[];
}

/** The whole message as buffers: headers, the text and HTML alternatives, then the attachments. */
export function buildMime(headers: MimeHeaders, text: string, html: string, attachments: readonly MimeAttachment[], boundary: string): Buffer[] {
  const mixed = `${boundary}_m`;
  const alternative = `${boundary}_a`;
  const lines = [
    `From: ${headers.from}`,
    `To: ${addressList(headers.to)}`,
    ...(headers.cc.length ? [`Cc: ${addressList(headers.cc)}`] : []),
    ...(headers.replyTo ? [`Reply-To: ${headers.replyTo}`] : []),
    `Subject: ${encodeHeaderText(headers.subject)}`,
    `Date: ${headers.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${headers.messageId}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
    '',
    `--${mixed}`,
    `Content-Type: multipart/alternative; boundary="${alternative}"`,
    '',
    `--${alternative}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
  ];
  const chunks: Buffer[] = [Buffer.from(`${lines.join('\r\n')}\r\n`), base64Lines(Buffer.from(text))];
  chunks.push(Buffer.from(`--${alternative}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n`));
  chunks.push(base64Lines(Buffer.from(html)));
  chunks.push(Buffer.from(`--${alternative}--\r\n`));
  for (const attachment of attachments) {
    const names = fileNameParams(attachment.fileName);
    chunks.push(Buffer.from(
      `--${mixed}\r\nContent-Type: ${attachment.contentType}; ${names.type}\r\nContent-Transfer-Encoding: base64\r\n` +
        `Content-Disposition: attachment; ${names.disposition}\r\n\r\n`,
    ));
    chunks.push(...attachment.encoded);
  }
  chunks.push(Buffer.from(`--${mixed}--\r\n`));
  return chunks;
}

