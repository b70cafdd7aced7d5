// Import boundaries of the architecture (DESIGN.md §2), checked by `npm run lint:boundaries`:
//   depcruise main shared renderer/src --config .dependency-cruiser.cjs
// Paths are relative to the repository root. Type-only imports count (tsPreCompilationDeps), and
// `.js`-suffixed ESM imports resolve to the `.ts` and `.tsx` files they name (tsConfig below), the
// renderer's included (not-to-unresolvable reports one that does not).

/** npm packages and node builtins: never a boundary question. */
const EXTERNAL = [
  'core',
  'npm',
  'npm-dev',
  'npm-optional',
  'npm-peer',
  'npm-bundled',
  'npm-no-pkg',
  'npm-unknown',
];

/** The dashboard's page folders, one per area (renderer/README.md). */
const PAGES = 'overview|productions|posting|broadcasts|recorder|analytics|guests|clips|activity|settings';

/**
 * What the pages stand on: renderer/src/components/, renderer/src/api/ and the files at the top of
 * renderer/src/ (hash router, formatting, hooks) but the entry, main.tsx.
 */
const RENDERER_BELOW_PAGES = ['^renderer/src/(components|api)/', '^renderer/src/[^/]+$'];
const RENDERER_ENTRY = '^renderer/src/main\\.tsx$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // --- foundation: kernel/, peers/, config/ know no area, no http/, no sandbox/ ---
    {
      name: 'kernel-knows-no-area-http-sandbox',
      comment:
        'main/kernel/ is what every area uses, knowing none: it imports no main/areas/**, main/http/ or main/sandbox/.',
      severity: 'error',
      from: { path: '^main/kernel/' },
      to: { path: '^main/(areas|http|sandbox)/' },
    },
    {
      name: 'peers-know-no-area-http-sandbox',
      comment: 'main/peers/ imports no main/areas/**, main/http/ or main/sandbox/.',
      severity: 'error',
      from: { path: '^main/peers/' },
      to: { path: '^main/(areas|http|sandbox)/' },
    },
    {
      name: 'config-knows-no-area-http-sandbox',
      comment: 'main/config/ imports no main/areas/**, main/http/ or main/sandbox/.',
      severity: 'error',
      from: { path: '^main/config/' },
      to: { path: '^main/(areas|http|sandbox)/' },
    },

    // --- areas: kernel, peers, config, shared, areas/area.ts, own folder, other areas' module.ts ---
    {
      name: 'area-no-other-area-internals',
      comment:
        "An area may import another area only through that area's module.ts (and the contract main/areas/area.ts).",
      severity: 'error',
      from: { path: '^main/areas/([^/]+)/' },
      to: {
        path: '^main/areas/',
        pathNot: ['^main/areas/$1/', '^main/areas/area\\.ts$', '^main/areas/[^/]+/module\\.ts$'],
      },
    },
    {
      name: 'area-no-http-sandbox',
      comment:
        'An area never imports main/http/ or main/sandbox/ (areas hand http/ their routes; only app.ts loads sandbox/).',
      severity: 'error',
      from: { path: '^main/areas/' },
      to: { path: '^main/(http|sandbox)/' },
    },
    {
      name: 'area-only-foundation-and-shared',
      comment:
        'Besides areas, an area imports only main/kernel/, main/peers/, main/config/, shared/, npm packages and node builtins (not main/app.ts, main/desktop/, renderer/, ...).',
      severity: 'error',
      from: { path: '^main/areas/' },
      to: {
        pathNot: ['^main/(kernel|peers|config|areas|http|sandbox)/', '^shared/'],
        dependencyTypesNot: EXTERNAL,
        couldNotResolve: false, // reported once, by not-to-unresolvable
      },
    },

    // --- http/: kernel, peers, config, shared and main/areas/area.ts; no area internals ---
    {
      name: 'http-no-area-internals',
      comment:
        'main/http/ imports no main/areas/<area>/** (areas hand it routes); only the contract main/areas/area.ts.',
      severity: 'error',
      from: { path: '^main/http/' },
      to: { path: '^main/areas/', pathNot: '^main/areas/area\\.ts$' },
    },
    {
      name: 'http-only-foundation-and-shared',
      comment:
        'main/http/ imports only main/kernel/, main/peers/, main/config/, shared/, main/areas/area.ts, its own folder, npm packages and node builtins.',
      severity: 'error',
      from: { path: '^main/http/' },
      to: {
        pathNot: ['^main/(kernel|peers|config|http|areas|sandbox)/', '^shared/'],
        dependencyTypesNot: EXTERNAL,
        couldNotResolve: false, // reported once, by not-to-unresolvable
      },
    },

    // --- sandbox/: only main/app.ts loads it, and only dynamically ---
    {
      name: 'sandbox-only-from-app',
      comment:
        'Only main/app.ts may load main/sandbox/ (areas are reported by area-no-http-sandbox; tests may import anything and are not cruised).',
      severity: 'error',
      from: { path: '^main/', pathNot: ['^main/sandbox/', '^main/areas/', '^main/app\\.ts$'] },
      to: { path: '^main/sandbox/' },
    },
    {
      name: 'app-loads-sandbox-dynamically',
      comment:
        "main/app.ts loads main/sandbox/ with a dynamic import('./sandbox/bridge-sandbox.js') (type-only imports are erased): a studio server never loads simulator code.",
      severity: 'error',
      from: { path: '^main/app\\.ts$' },
      to: { path: '^main/sandbox/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'sandbox-reaches-areas-through-modules',
      comment:
        'The sandbox area (main/sandbox/*.ts) seeds and asks the areas only through what their module.ts exports and the contract main/areas/area.ts, as an area would.',
      severity: 'error',
      from: { path: '^main/sandbox/' },
      to: { path: '^main/areas/', pathNot: ['^main/areas/area\\.ts$', '^main/areas/[^/]+/module\\.ts$'] },
    },
    {
      name: 'simulators-know-no-bridge',
      comment:
        'The simulated peers (main/sandbox/<peer>/) are peers: they import nothing of the bridge outside main/sandbox/ but shared/.',
      severity: 'error',
      from: { path: '^main/sandbox/[^/]+/' },
      to: { path: '^main/', pathNot: '^main/sandbox/' },
    },
    {
      name: 'sandbox-routes-only-in-sandbox',
      comment:
        "Only the sandbox area (and app.ts's 404 for them with real peers) mounts the /api/sandbox/* contracts of shared/api/sandbox.ts: production areas hold no sandbox branch.",
      severity: 'error',
      from: { path: '^main/', pathNot: ['^main/sandbox/', '^main/app\\.ts$'] },
      to: { path: '^shared/api/sandbox\\.ts$' },
    },

    // --- renderer/ and shared/ ---
    {
      name: 'main-no-renderer',
      comment: 'Nothing in main/ imports renderer/.',
      severity: 'error',
      from: { path: '^main/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'shared-no-main-renderer',
      comment: 'shared/ is imported by main/ and renderer/, and imports neither.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(main|renderer)/' },
    },

    // --- one rule of what a clip fits (DESIGN §6.6, issue #28.2) ---
    {
      name: 'one-clip-fit-rule',
      comment:
        "Only shared/clip-fit.ts reads the clip platform table (shared/clip-platforms.ts): a suggestion's fitsPlatforms, the draft's check and the webhook warning all ask fitClip, so they cannot disagree.",
      severity: 'error',
      from: { path: '^(main|shared|renderer)/', pathNot: '^shared/clip-fit\\.ts$' },
      to: { path: '^shared/clip-platforms\\.ts$' },
    },

    // --- renderer/src/: the entry and shell/ above the pages; components/, api/, top-level files below ---
    {
      name: 'renderer-no-main',
      comment:
        'Nothing in renderer/ imports main/ (the dashboard speaks to the bridge through shared/ contracts).',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^main/' },
    },
    {
      name: 'renderer-plumbing-no-page',
      comment:
        'renderer/src/components/, api/ and the files at the top of src/ (but the entry, main.tsx) import no page folder: they are what the pages stand on.',
      severity: 'error',
      from: { path: RENDERER_BELOW_PAGES, pathNot: RENDERER_ENTRY },
      to: { path: `^renderer/src/(${PAGES})/` },
    },
    {
      name: 'renderer-plumbing-no-shell',
      comment:
        'renderer/src/components/, api/ and the files at the top of src/ import neither renderer/src/shell/ nor the entry main.tsx.',
      severity: 'error',
      from: { path: RENDERER_BELOW_PAGES, pathNot: RENDERER_ENTRY },
      to: { path: ['^renderer/src/shell/', RENDERER_ENTRY] },
    },
    {
      name: 'renderer-page-no-shell',
      comment:
        'A page folder imports neither renderer/src/shell/ (which imports the pages) nor the entry main.tsx.',
      severity: 'error',
      from: { path: `^renderer/src/(${PAGES})/` },
      to: { path: ['^renderer/src/shell/', RENDERER_ENTRY] },
    },
    {
      name: 'renderer-page-no-other-page',
      comment:
        "A page folder may use another area's hooks and panels (the Overview shows activity, the recorder and held workflows; Activity names posts, broadcasts and guests), never its <Name>Page.tsx: pages are reached through shell/routes.ts, which loads all but the Overview lazily.",
      severity: 'error',
      from: { path: `^renderer/src/(${PAGES})/` },
      to: { path: `^renderer/src/(${PAGES})/[^/]*Page\\.tsx$`, pathNot: '^renderer/src/$1/' },
    },
    // --- the rules above only see what resolves ---
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve to a file cannot be checked against the rules above.',
      severity: 'error',
      from: { path: '^(main|shared|renderer)/' },
      to: { couldNotResolve: true },
    },

    // --- no import circles, type-only ones included ---
    {
      name: 'no-circular',
      comment:
        'No import circle in main/, shared/ or renderer/src/: a type two files share goes in a file of its own (e.g. kernel/migrations/migration.ts).',
      severity: 'error',
      from: { path: '^(main|shared|renderer)/' },
      to: { path: '^(main|shared|renderer)/', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|release|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
