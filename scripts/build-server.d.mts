/** Types of build-server.mjs, for the TypeScript that imports it (the test run's global setup). */
export declare const DIST_DIR: string;
/** The current build's entry (dist/<build>/sheaf.mjs), building first when it is missing or stale. */
export declare function ensureServerBuild(options?: { quiet?: boolean }): Promise<string>;
