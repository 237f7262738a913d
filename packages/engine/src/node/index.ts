/** Node-only adapters of the engine (file system access for bundled assets). */
export { loadBundledFallbackFonts } from './fonts.ts';
export { DEFAULT_MERGE_MEMORY_MB, mergeDocumentsInParallel, prepareMergeInWorkers, type ParallelOptions, type ParallelMerge, type ThreadedMerge } from './parallel.ts';
export { useNativeCrypto } from './nativeCrypto.ts';
export { useNativeZlib } from './nativeZlib.ts';
export { checkTemplateSafely, type GuardLimits, type TemplateFacts } from './guarded.ts';
