/** Node-only adapters of the engine (file system access for bundled assets). */
export { loadBundledFallbackFonts } from './fonts.ts';
export { mergeDocumentsInParallel, type ParallelOptions, type ParallelMerge } from './parallel.ts';
export { useNativeCrypto } from './nativeCrypto.ts';
export { checkTemplateSafely, type GuardLimits, type TemplateFacts } from './guarded.ts';
