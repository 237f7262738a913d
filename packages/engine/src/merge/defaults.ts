import { DateFormatSchema, NumberFormatSchema } from '@sheaf/shared';

/** Formats used when a number or date placeholder has none of its own. */
export const DEFAULT_NUMBER_FORMAT = NumberFormatSchema.parse({});
export const DEFAULT_DATE_FORMAT = DateFormatSchema.parse({});
