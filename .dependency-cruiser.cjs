// The area graph of docs/architecture.md, checked by dependency-cruiser (`npm run lint:deps`, part of
// `npm run lint` and so of `npm test`). Type-only imports count: an area that needs another's types
// depends on it as much as one that calls it.
//
// An area is a folder: server/domain/<area>, server/api/<area>, server/integrations/<adapter>, and the
// layers server/core, server/engine, server/jobs, db. Cycles between folders are checked on the folder
// graph (scope 'folder'); cycles between modules of one folder are that folder's own business.

/** Code that only tests and tools run: it may reach anything, and nothing in the desk may reach it. */
const HARNESS = '^server/(testing|bench|crash)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle-between-areas',
      severity: 'error',
      comment:
        'Areas depend on each other in one direction. Move the shared enum or row type to a leaf ' +
        '(server/core/vocabulary.ts, the catalog), move the function to the area that owns the concept, ' +
        'or have the lower area take a callback that server/start.ts wires.',
      scope: 'folder',
      from: { path: '^(server|db|main|preload|renderer)/' },
      to: { circular: true },
    },
    {
      name: 'core-is-the-floor',
      severity: 'error',
      comment: 'server/core is the shared kit everything uses; it imports nothing of the desk above it.',
      from: { path: '^server/core/' },
      to: { path: '^(server|db|main|preload|renderer)/', pathNot: '^server/core/' },
    },
    {
      name: 'db-imports-no-domain',
      severity: 'error',
      comment:
        'db/ (schema, migrations, connection, transactions) sits under every area: it may use the ' +
        'shared vocabulary (server/core) and the catalog of activity kinds, nothing else of server/.',
      from: { path: '^db/' },
      to: { path: '^(server|main|preload|renderer)/', pathNot: '^server/(core|domain/catalog)/' },
    },
    {
      name: 'catalog-is-a-leaf',
      severity: 'error',
      comment: 'The catalog (activity kinds, events, payloads) is vocabulary that db/ and every area use: it imports only server/core.',
      from: { path: '^server/domain/catalog/' },
      to: { path: '^(server|db|main|preload|renderer)/', pathNot: '^server/(core|domain/catalog)/' },
    },
    {
      name: 'engine-imports-no-domain',
      severity: 'error',
      comment:
        'Engines never touch the database, and the engine contract (server/engine/types.ts) is what ' +
        'the domain depends on, not the reverse. Engine settings live in server/domain/engine-settings.',
      from: { path: '^server/engine/' },
      to: { path: '^(db|main|preload|renderer)/|^server/(domain|api|jobs|integrations|openapi)/|^server/[^/]+$' },
    },
    {
      name: 'domain-imports-no-outer-layer',
      severity: 'error',
      comment:
        'Domain code does not import controllers, jobs, the OpenAPI tooling or the composition root; ' +
        'a side effect outside its area is a hook that server/start.ts wires.',
      from: { path: '^server/domain/' },
      to: { path: '^server/(api|jobs|openapi|mcp)/|^server/(start|services|app|cli|http-guards)\\.ts$|^(main|preload|renderer)/' },
    },
    {
      name: 'api-is-thin',
      severity: 'error',
      comment:
        'Controllers and the MCP server (server/mcp, an adapter like them) call domain services: no jobs, ' +
        'no database access (db/schema types only), so no rule has a second copy in an adapter.',
      from: { path: '^server/(api|mcp)/' },
      to: { path: '^server/jobs/|^db/(?!schema\\.ts$)' },
    },
    {
      name: 'integrations-are-adapters',
      severity: 'error',
      comment: 'Adapters (feeds, relay) do not import domain code, controllers, jobs or the database: the domain calls them, start.ts wires their callbacks.',
      from: { path: '^server/integrations/' },
      to: { path: '^server/(domain|api|jobs)/|^db/' },
    },
    {
      name: 'jobs-are-wired-by-start',
      severity: 'error',
      comment: 'Only the composition root (server/start.ts) registers jobs; jobs call domain services, never controllers.',
      from: { path: '^server/', pathNot: `^server/(jobs/|start\\.ts$|services\\.ts$)|${HARNESS}` },
      to: { path: '^server/jobs/' },
    },
    {
      name: 'jobs-call-no-controllers',
      severity: 'error',
      from: { path: '^server/jobs/' },
      to: { path: '^server/api/' },
    },
    {
      name: 'renderer-talks-http',
      severity: 'error',
      comment: 'The renderer reaches the server over HTTP only: enums and bounds come from renderer/src/api/rules.gen.ts.',
      from: { path: '^renderer/' },
      to: { path: '^(server|db|main|preload)/' },
    },
    {
      name: 'main-is-the-top',
      severity: 'error',
      comment: 'main/ (the Electron shell) starts the server; nothing of the server, db or renderer imports it.',
      from: { path: '^(server|db|renderer)/' },
      to: { path: '^main/' },
    },
    {
      name: 'no-harness-in-the-desk',
      severity: 'error',
      comment: 'Test support, benches and crash drills are reached only from tests and tools.',
      from: { pathNot: `${HARNESS}|\\.test\\.tsx?$` },
      to: { path: HARNESS },
    },
  ],
  options: {
    // Type-only imports are dependencies too (the issue counted them).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Tests sit beside their module and reach across areas by design; generated routes and client
    // types may be missing before `npm run gen`.
    // The renderer's test kit (renderer/src/testing, a feature's testing.ts fakes) is harness too.
    exclude: { path: ['\\.test\\.tsx?$', '^server/generated/', '\\.gen\\.ts$', '^renderer/src/testing/', '^renderer/src/features/[^/]+/testing\\.tsx?$'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
