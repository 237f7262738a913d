/**
 * A minimal tokenizer for the small workbook parts (content types, relationships, workbook, styles):
 * start and end tags with their attributes, by local name. No DTD support: a DOCTYPE is refused.
 */
import { corrupt } from '../limits.ts';
import { decodeEntities } from './xml-bytes.ts';

export interface XmlElement {
  /** Local name (prefix dropped). */
  readonly name: string;
  readonly closing: boolean;
  readonly selfClosing: boolean;
  /** Attributes by local name, entities decoded. */
  readonly attributes: ReadonlyMap<string, string>;
}

const ATTRIBUTE = /([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();

/** Decodes a part's bytes: UTF-8, or UTF-16 when it starts with a byte order mark. */
export function decodePart(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

export function* xmlElements(xml: string): Generator<XmlElement> {
  let at = 0;
  for (let lt = xml.indexOf('<', at); lt >= 0; lt = xml.indexOf('<', at)) {
    const next = xml[lt + 1];
    if (next === '!' || next === '?') {
      at = skipSpecial(xml, lt);
      continue;
    }
    const gt = tagEnd(xml, lt + 1);
    const closing = next === '/';
    const selfClosing = xml[gt - 1] === '/';
    const body = xml.slice(closing ? lt + 2 : lt + 1, selfClosing ? gt - 1 : gt);
    const nameLength = body.search(/[\s/]|$/);
    const name = localName(body.slice(0, nameLength));
    at = gt + 1;
    if (name === '') throw corrupt('malformed XML tag');
    yield { name, closing, selfClosing, attributes: closing ? NO_ATTRIBUTES : attributesOf(body.slice(nameLength)) };
  }
}

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const value = match[2] ?? match[3] ?? '';
    attributes.set(localName(match[1]!), value.includes('&') ? decodeEntities(value) : value);
  }
  return attributes;
}

function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1);
}

function tagEnd(xml: string, from: number): number {
  for (let at = from; at < xml.length; at++) {
    const char = xml[at];
    if (char === '>') return at;
    if (char === '"' || char === "'") {
      at = xml.indexOf(char, at + 1);
      if (at < 0) break;
    }
  }
  throw corrupt('unterminated XML tag');
}

function skipSpecial(xml: string, lt: number): number {
  const terminator = xml.startsWith('<!--', lt) ? '-->' : xml.startsWith('<![CDATA[', lt) ? ']]>' : xml[lt + 1] === '?' ? '?>' : null;
  if (terminator === null) throw corrupt('the XML declares a document type (DOCTYPE/ENTITY), which is not allowed');
  const end = xml.indexOf(terminator, lt + 2);
  if (end < 0) throw corrupt('unterminated XML construct');
  return end + terminator.length;
}
