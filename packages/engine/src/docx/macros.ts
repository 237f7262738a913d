/**
 * Macros of a .docm/.dotm template are dropped from every filled document (docs/word-templates.md):
 * the output is a .docx, which may not carry a VBA project (Word refuses such a file), and Sheaf
 * never runs nor passes on code. The parts go, and so do the references to them.
 */

/** The VBA project, its signature and data parts, and their relationships. */
const MACRO_PART = /^word\/(vbaProject(Signature)?\.bin|vbaData\.xml|_rels\/vbaProject\.bin\.rels)$/i;
const MACRO_CONTENT_TYPE = /<(?:Override|Default)\b[^>]*(?:vbaProject|vbaData|vbaSignature)[^>]*\/>/g;
const MACRO_RELATIONSHIP = /<Relationship\b[^>]*Type\s*=\s*["'][^"']*\/(?:vbaProject|vbaData)["'][^>]*\/>/g;

export function isMacroPart(name: string): boolean {
  return MACRO_PART.test(name);
}

/** [Content_Types].xml or a relationships part without its entries for macro parts. */
export function withoutMacroReferences(xml: string): string {
  return xml.replace(MACRO_CONTENT_TYPE, '').replace(MACRO_RELATIONSHIP, '');
}
