/// <reference types="vite/client" />

/** Defined by vite.config.ts at build time. */
declare const __APP_VERSION__: string;
declare const __BUILD_ID__: string;

interface SheafRuntimeConfig {
  /** API hosts, primary first ('' = this origin); the client adds /v1 and fails over between them. */
  apiHosts?: string[];
  /** Address of the support mailbox shown in help and "suggest improvement". */
  supportEmail?: string;
}

interface Window {
  SHEAF_CONFIG?: SheafRuntimeConfig;
}
