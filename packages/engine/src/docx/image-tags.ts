/**
 * Picture tags of Word templates (docs/word-templates.md#images-and-qr-codes): `{{%image Column}}`
 * prints the supplied image the cell names, `{{%qr Column}}` the cell's text as a QR code, each as
 * an inline picture where the tag is. A size may end the tag (`{{%image Photo 5cm}}`): the width of
 * an image (its height keeps the aspect ratio), the side of a QR code. The `%` right before the
 * keyword is what sets these apart: `{{% discount}}` or `{{%imaged}}` stay ordinary tags.
 */

export type PictureKind = 'image' | 'qr';

export interface PictureTag {
  picture: PictureKind;
  column: string;
  /** Width (an image) or side (a QR code) in EMU (1 cm = 360,000), when the tag gives one. */
  width?: number;
}

/** EMU (English Metric Units, DrawingML's length) per unit a tag may give. */
const EMU_PER_UNIT: Record<string, number> = { cm: 360_000, mm: 36_000, in: 914_400, pt: 12_700 };
/** Word's largest page side (22 in): a larger size is no size but a word of the column's name. */
const MAX_WIDTH_EMU = 22 * 914_400;
export const DEFAULT_IMAGE_WIDTH_EMU = 4 * 360_000;
export const DEFAULT_QR_SIDE_EMU = 3 * 360_000;

/** The picture tag a tag's inner text ("%image Photo 5cm") is, or undefined for any other tag. */
export function pictureTagOf(name: string): PictureTag | undefined {
  const match = /^%(image|qr)\s+(\S.*)$/is.exec(name);
  if (!match) return undefined;
  const picture = match[1]!.toLowerCase() as PictureKind;
  const rest = match[2]!.trim();
  const sized = /^(.*\S)\s+(\d+(?:\.\d+)?)(cm|mm|in|pt)$/is.exec(rest);
  if (sized) {
    const width = Math.round(Number(sized[2]) * EMU_PER_UNIT[sized[3]!.toLowerCase()]!);
    if (width > 0 && width <= MAX_WIDTH_EMU) return { picture, column: sized[1]!, width };
  }
  return { picture, column: rest };
}
