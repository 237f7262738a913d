export { FontRegistry, type FontRegistryOptions } from './registry.ts';
export { MIN_FONT_SIZE, overflowsBox } from './fit.ts';
export type { Box, TextLayout, TextLine, TextRun, TextStyle } from './types.ts';
