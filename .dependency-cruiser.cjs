// The import rules CI enforces (`npm run depcheck`, scripts/depcheck.mjs): no module cycles, vscode only in the
// editor, no HTTP in the core, one engine boundary, HTTP plumbing and the device link apart from the job core.
// The same script checks that no two top-level folders of src/ import each other.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-door-to-door',
      comment:
        'A door (Local API, OpenAI, MCP, editor, device link, relay, CLI) translates one protocol onto the core; a rule two doors share belongs in the core or a shared mechanism, never in another door.',
      severity: 'error',
      from: { path: '^src/(local-api|openai|mcp|realtime|editor|device|relay|cli)/' },
      to: { path: '^src/(local-api|openai|mcp|realtime|editor|device|relay|cli)/', pathNot: '^src/$1/' },
    },
    {
      name: 'cli-entry-is-a-door',
      comment: "src/cli.ts is the CLI door's entry: it composes through src/host/ and never reaches into another door.",
      severity: 'error',
      from: { path: '^src/cli\\.ts$' },
      to: { path: '^src/(local-api|openai|mcp|realtime|editor|device|relay)/' },
    },
    {
      name: 'no-door-in-core',
      comment:
        'The core (jobs, engine) and the shared mechanisms serve every door, so they import none of them; only src/host/ composes doors.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: '^src/(local-api|openai|mcp|realtime|editor|device|relay|cli|host)/|^src/(cli|extension|relay)\\.ts$',
      },
      to: { path: '^src/(local-api|openai|mcp|realtime|editor|device|relay|cli|host)/' },
    },
    {
      name: 'engine-is-a-process',
      comment:
        'src/engine/ runs in the engine child process; the server side reaches it only through engine tasks (src/jobs/engine-host.ts forks the bundle that scripts/build.mjs builds from src/engine/worker.ts by path). What both sides need — the typed messages and the configuration — lives in src/engine-api/, and pure rules where docs/architecture.md puts them (models, voices, contract, src/audio/).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/engine/' },
      to: { path: '^src/engine/' },
    },
    {
      name: 'no-core-in-plumbing',
      comment:
        "src/http/ (the HTTP plumbing the doors share) and src/link/ (the device ↔ relay wire protocol, also run by the relay) never import the job core: they take what they need of it as a parameter or an interface, and rules they apply live in the core's pure neighbours (src/models/, src/voices/, src/contract/).",
      severity: 'error',
      from: { path: '^src/(http|link)/' },
      to: { path: '^src/jobs/' },
    },
    {
      name: 'no-module-cycle',
      comment: 'Two modules that import each other (type-only imports included) cannot be read, tested or moved alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'vscode-only-in-editor',
      comment: 'Only the editor and the extension entry run inside VS Code; everything else must run in plain Node.',
      severity: 'error',
      from: { pathNot: '^src/(editor/|extension\\.ts$)' },
      to: { path: '^vscode$|node_modules/@types/vscode/' },
    },
    {
      name: 'no-http-in-core',
      comment:
        'The engine and the job core serve every door (Local API, editor, device link, relay); HTTP belongs to the doors.',
      severity: 'error',
      from: { path: '^src/(engine|jobs)/' },
      to: {
        path: [
          '^(node:)?(http|https|http2)$',
          'node_modules/(@types/)?(koa|koa-[^/]+|@koa/[^/]+|busboy|ws)/',
          '^(koa|koa-[^/]+|@koa/[^/]+|busboy|ws)$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a cycle through `import type` still ties two modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
