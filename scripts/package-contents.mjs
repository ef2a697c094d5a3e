// What each .vsix carries from the repository beside node_modules, and README's links into it. The project
// has no public repository address for vsce to rewrite README's relative links to (`--baseContentUrl`), so the
// documents README links to travel in the package and its links resolve inside the installed extension.
// scripts/package.mjs stages these; scripts/check-packages.mjs and test/unit/package-check.test.ts check them.

/** Files and folders copied from the repository into the package's stage (then filtered by .vscodeignore). */
export const STAGED = [
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  '.vscodeignore',
  // The pages README links to: the guides, the contributor's and the benchmarks' pages.
  'docs',
  'CONTRIBUTING.md',
  'bench/README.md',
  // The icon and README's screenshots; what the manifest points at (subtitle grammars, the lexicon's schema).
  'media',
  'syntaxes',
  'schemas',
  'dist',
];

/** The prose of a Markdown text: outside fenced code blocks and inline code, where `](x)` is not a link. */
const prose = (markdown) => {
  let fenced = false;
  return markdown
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && !line.startsWith('```');
    })
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
};

/** The files README links to or shows by a relative address (anchors and queries dropped), in order, once each. */
export function readmeTargets(readme) {
  const targets = [...prose(readme).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURIComponent(target.split(/[#?]/)[0]).replace(/^\.\//, ''));
  return [...new Set(targets)];
}

// vsce 3.9.2 leaves these out of every package unless a `!` line keeps them (its `defaultIgnore`): CONTRIBUTING.md
// among them, which README links to, so .vscodeignore keeps it.
const VSCE_DEFAULT_IGNORE = [
  '.vscodeignore',
  'package-lock.json',
  'npm-debug.log',
  'yarn.lock',
  'yarn-error.log',
  'npm-shrinkwrap.json',
  '.editorconfig',
  '.npmrc',
  '.yarnrc',
  '.gitattributes',
  '*.todo',
  'tslint.yaml',
  '.eslintrc*',
  '.babelrc*',
  '.prettierrc*',
  '.cz-config.js',
  '.commitlintrc*',
  'webpack.config.js',
  'ISSUE_TEMPLATE.md',
  'CONTRIBUTING.md',
  'PULL_REQUEST_TEMPLATE.md',
  'CODE_OF_CONDUCT.md',
  '.github',
  '.travis.yml',
  'appveyor.yml',
  '**/.git',
  '**/.git/**',
  '**/*.vsix',
  '**/.DS_Store',
  '**/*.vsixmanifest',
  '**/.vscode-test/**',
  '**/.vscode-test-web/**',
];

/** A pattern as vsce's minimatch reads it (dot files included), over a path relative to the package root. */
function globRegExp(pattern) {
  const body = pattern
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`);
}

/** Whether vsce leaves a file out: a pattern of its own list or of .vscodeignore matches it, and no `!` line does. */
export function ignoredBy(vscodeignore, file) {
  const lines = vscodeignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const kept = lines.filter((line) => line.startsWith('!')).some((line) => globRegExp(line.slice(1)).test(file));
  return (
    !kept &&
    [...VSCE_DEFAULT_IGNORE, ...lines.filter((line) => !line.startsWith('!'))].some((line) =>
      globRegExp(line).test(file),
    )
  );
}

/** Whether a file of the repository is copied into the stage: it is, or lies under, one of STAGED. */
export const isStaged = (file) => STAGED.some((entry) => file === entry || file.startsWith(`${entry}/`));
