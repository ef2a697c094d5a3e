// Fails when src/ breaks an import rule of .dependency-cruiser.cjs, or when two top-level folders of src/ import each other.
// Usage: node scripts/depcheck.mjs [project root]   (default: this repository; the tests point it at planted fixtures)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const REPO = path.resolve(import.meta.dirname, '..');

/** `src/engine/tts/x.ts` → `src/engine`; a file directly in src/ is its own unit (`src/cli.ts`). */
export const topLevelUnit = (source) => source.split('/').slice(0, 2).join('/');

/**
 * The strongly connected groups (Tarjan) of the graph between top-level units that hold more than one unit:
 * each is a set of folders that import each other, directly or round a loop.
 */
function cyclicGroups(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** One line per import that crosses between two units of a cyclic group, so the reader sees what to cut. */
function folderCycleReport(modules) {
  const edges = new Map(); // unit → (unit → first import seen, as "from → to")
  for (const module of modules) {
    if (!module.source.startsWith('src/')) continue;
    const from = topLevelUnit(module.source);
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith('src/')) continue;
      const to = topLevelUnit(dependency.resolved);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dependency.resolved}`);
    }
  }
  return cyclicGroups(edges).map((group) => {
    const inside = new Set(group);
    const crossings = group.flatMap((from) =>
      [...(edges.get(from) ?? [])]
        .filter(([to]) => inside.has(to))
        .map(([to, example]) => `    ${from} → ${to} (e.g. ${example})`),
    );
    return `  error no-folder-cycle: ${group.join(', ')} import each other:\n${crossings.join('\n')}`;
  });
}

function moduleRuleReport(violations) {
  return violations.map((violation) => {
    const route = violation.cycle?.length
      ? [violation.from, ...violation.cycle.map((step) => step.name ?? step)]
      : [violation.from, violation.to];
    return `  ${violation.rule.severity} ${violation.rule.name}: ${route.join(' → ')}`;
  });
}

export async function depcheck(root = REPO) {
  const options = await extractDepcruiseOptions(path.join(REPO, '.dependency-cruiser.cjs'));
  const tsConfigFile = path.join(root, 'tsconfig.json');
  const hasTsConfig = existsSync(tsConfigFile);
  if (!hasTsConfig) delete options.tsConfig;
  const previous = process.cwd();
  process.chdir(root); // dependency-cruiser names modules relative to the working directory
  try {
    const result = await cruise(['src'], { ...options, validate: true, outputType: 'json' }, undefined, {
      tsConfig: hasTsConfig ? extractTSConfig(tsConfigFile) : undefined,
    });
    const cruised = JSON.parse(result.output);
    const errors = [
      ...moduleRuleReport(cruised.summary.violations.filter((violation) => violation.rule.severity === 'error')),
      ...folderCycleReport(cruised.modules),
    ];
    return { errors, modules: cruised.modules.filter((module) => module.source.startsWith('src/')).length };
  } finally {
    process.chdir(previous);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(process.argv[2] ?? REPO);
  const { errors, modules } = await depcheck(root);
  if (errors.length > 0) {
    console.error(`depcheck: ${errors.length} import rule(s) broken in ${root}/src:\n${errors.join('\n')}`);
    process.exit(1);
  }
  console.log(
    `depcheck: ${modules} modules in src/, no import cycle, vscode only in the editor, no HTTP in the engine or the job core, no door importing another door, nothing outside src/engine/ importing it, no job core in src/http/ or src/link/.`,
  );
}
