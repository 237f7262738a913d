/** True when the web app's sources changed since apps/web/dist was built (or it was never built). */
export function webBuildIsStale(): boolean;

/** Builds apps/web into a scratch folder and swaps it in for dist/ whole (production mode); false if the build failed. */
export function buildWebApp(): boolean;
