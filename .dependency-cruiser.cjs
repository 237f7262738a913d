/**
 * The import rules `npm run lint` checks (dependency-cruiser): no cycle anywhere (type imports
 * included), server modules talk to each other only through their index.ts, services never reach
 * into the HTTP layer, and the shared contract and the engine never import an app.
 * Run: npx depcruise --config .dependency-cruiser.cjs packages apps/server apps/web/src
 */
const MODULES = '^apps/server/src/modules/([^/]+)/';

/**
 * The server modules from the bottom up: a module may use the ones before it, never one after it
 * (merges never imports email: the mailing rides on merges' events and hooks instead).
 */
const LAYERS = ['users', 'auth', 'team', 'billing', 'licences', 'support', 'fonts', 'spreadsheets', 'templates', 'senders', 'merges', 'email', 'datacheck'];
const layerRules = LAYERS.slice(0, -1).map((module, index) => ({
  name: `module-layers-${module}`,
  severity: 'error',
  comment: `${module} sits below ${LAYERS.slice(index + 1).join(', ')}: it does not import them (events and hooks go upward).`,
  from: { path: `^apps/server/src/modules/${module}/` },
  to: { path: `^apps/server/src/modules/(${LAYERS.slice(index + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles (type-only imports too) make the load order fragile and the parts impossible to take apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'module-through-index',
      severity: 'error',
      comment:
        'A server module is used only through its public index.ts (service functions, DTO types, events, jobs); ' +
        'its repositories, SQL and other files are private. Applies to other modules and to everything outside modules/.',
      from: { path: '^apps/server/src/', pathNot: `${MODULES}` },
      to: { path: `${MODULES}`, pathNot: `${MODULES}index\\.ts$` },
    },
    {
      name: 'tests-seed-through-repository',
      severity: 'error',
      comment:
        'The one exception to module-through-index: a server test may seed rows through a module\'s repository.ts ' +
        '(a sender verified by DNS, say) when the API cannot reach that state; everything else through index.ts.',
      from: { path: '^apps/server/test/' },
      to: { path: `${MODULES}`, pathNot: [`${MODULES}index\\.ts$`, `${MODULES}repository\\.ts$`] },
    },
    {
      name: 'module-to-module-through-index',
      severity: 'error',
      comment: 'From one server module to another: only the other module\'s index.ts.',
      from: { path: `${MODULES}` },
      to: { path: '^apps/server/src/modules/([^/]+)/', pathNot: ['^apps/server/src/modules/$1/', `${MODULES}index\\.ts$`] },
    },
    {
      name: 'services-not-http',
      severity: 'error',
      comment: 'Services never import the HTTP layer; only a module\'s route registration (routes.ts, *-routes.ts) does.',
      from: { path: '^apps/server/src/(modules|access|events|jobs|adapters)/', pathNot: '(^|/|-)routes\\.ts$' },
      to: { path: '^apps/server/src/http/' },
    },
    {
      name: 'contract-and-engine-not-apps',
      severity: 'error',
      comment: 'packages/shared and packages/engine are used by the apps, never the other way round.',
      from: { path: '^packages/(shared|engine)/' },
      to: { path: '^(apps|e2e|bench)/' },
    },
    {
      name: 'shared-not-engine',
      severity: 'error',
      comment: 'The shared contract is the bottom layer: zod only.',
      from: { path: '^packages/shared/' },
      to: { path: '^packages/engine/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.tmp)/' },
    // Type-only imports count: a cycle through `import type` is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
