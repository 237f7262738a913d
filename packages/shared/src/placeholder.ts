import { z } from 'zod';

/**
 * A placeholder on a template page (docs/editor.md#placeholders), plus `column`: the
 * spreadsheet heading that feeds it. Coordinates are fractions of the page as a person sees it
 * (crop box, after rotation), origin top-left; relativeFontSize is the font size over the page height.
 */
export const PLACEHOLDER_TYPES = ['text', 'number', 'date', 'image', 'qrcode', 'eSignature', 'multiple'] as const;
export type PlaceholderType = (typeof PLACEHOLDER_TYPES)[number];

export const NumberFormatSchema = z.object({
  style: z.enum(['decimal', 'currency', 'percent']).default('decimal'),
  /** Fixed number of decimals; omitted keeps the value's own (up to 10). */
  decimals: z.number().int().min(0).max(10).optional(),
  thousandsSeparator: z.boolean().default(true),
  /** BCP 47 locale deciding separators and symbols, e.g. "de-DE". */
  locale: z.string().min(2).max(35).default('en-US'),
  /** ISO 4217 code for style "currency". */
  currency: z.string().regex(/^[A-Za-z]{3}$/).default('USD'),
});
export type NumberFormat = z.infer<typeof NumberFormatSchema>;

export const DATE_PRESETS = [
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'YYYY-MM-DD',
  'DD.MM.YYYY',
  'D MMMM YYYY',
  'MMMM D, YYYY',
  'DD MMM YYYY',
  'dddd, D MMMM YYYY',
] as const;

export const DateFormatSchema = z.object({
  /** A preset, or "custom" to use customFormat. */
  format: z.union([z.enum(DATE_PRESETS), z.literal('custom')]).default('DD/MM/YYYY'),
  /** Tokens: YYYY YY MMMM MMM MM M DD D dddd ddd HH H hh h mm ss A; text in [brackets] is literal. */
  customFormat: z.string().max(100).optional(),
  locale: z.string().min(2).max(35).default('en-US'),
});
export type DateFormat = z.infer<typeof DateFormatSchema>;

export const TypeSettingsSchema = z
  .object({
    /** text: shrink the font until the value fits the box. */
    shrinkToFit: z.boolean().optional(),
    /** text: wrap onto several lines inside the box (default true). */
    wrap: z.boolean().optional(),
    numberFormat: NumberFormatSchema.optional(),
    dateFormat: DateFormatSchema.optional(),
    /** qrcode: error-correction level. */
    errorCorrection: z.enum(['L', 'M', 'Q', 'H']).optional(),
  })
  .default({});
export type TypeSettings = z.infer<typeof TypeSettingsSchema>;

const fraction = z.number().min(0).max(1);

export const PlaceholderSchema = z.object({
  id: z.string().min(1).max(64),
  type: z.enum(PLACEHOLDER_TYPES).default('text'),
  /** The spreadsheet heading whose cell fills this placeholder. */
  column: z.string().min(1).max(255),
  typeSettings: TypeSettingsSchema,
  /** 1-based page of the template. */
  pageNumber: z.number().int().min(1),
  relativeX: fraction,
  relativeY: fraction,
  relativeWidth: z.number().gt(0).max(1),
  relativeHeight: z.number().gt(0).max(1),
  relativeFontSize: z.number().gt(0).max(1).default(0.0109),
  /** Courier, Helvetica, Times New Roman, or the name of a custom font; unknown falls back to Helvetica. */
  fontFamily: z.string().min(1).max(200).default('Helvetica'),
  align: z.enum(['left', 'center', 'right']).default('left'),
  fontStyle: z.enum(['normal', 'bold', 'italic', 'boldItalic']).default('normal'),
  textDecoration: z.enum(['none', 'underline', 'lineThrough']).default('none'),
  /** Text colour, #rrggbb. */
  fill: z.string().regex(/^#[0-9a-fA-F]{6}$/).default('#000000'),
});
export type Placeholder = z.infer<typeof PlaceholderSchema>;
export type PlaceholderInput = z.input<typeof PlaceholderSchema>;

export const PlaceholderListSchema = z.array(PlaceholderSchema).max(5000);
