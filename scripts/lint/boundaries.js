// The import boundaries of the code base, as one ESLint rule:
// - ledger/ (the write side) imports nothing of server/, projections/, web/ or scripts/;
// - web/ imports nothing of server/, projections/ or scripts/ (it may import ledger/contract/);
// - a feature of the client (web/src/features/<name>/) imports no other feature: what two
//   features share lives in web/src/components/ or web/src/lib/.
// Relative imports are resolved against the file's folder, the client's aliases `@/` (web/src/)
// and `@ledger/` (ledger/) against the root.
// Test files (*.spec.ts) may cross the folder boundaries, not the features'.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The file's path from the repository root, with forward slashes. */
const fromRoot = (file) => path.relative(root, file).split(path.sep).join('/');

/** Where an import points, from the repository root; null for a package. */
function target(file, specifier) {
  if (specifier.startsWith('@/')) return fromRoot(path.join(root, 'web/src', specifier.slice(2)));
  if (specifier.startsWith('@ledger/')) return fromRoot(path.join(root, 'ledger', specifier.slice('@ledger/'.length)));
  if (!specifier.startsWith('.')) return null;
  return fromRoot(path.resolve(path.dirname(file), specifier));
}

const FORBIDDEN = [
  { from: 'ledger/', to: ['server/', 'projections/', 'web/', 'scripts/'] },
  { from: 'web/', to: ['server/', 'projections/', 'scripts/'] },
];

const feature = (p) => /^web\/src\/features\/([^/]+)\//.exec(p)?.[1] ?? null;

/** Why importing `to` from `from` crosses a boundary, or null when it may. */
export function crossing(from, to) {
  // A test may reach across (an adapter's suite opens the app's database); the code it tests may not.
  const test = /\.spec\.tsx?$/.test(from);
  for (const rule of test ? [] : FORBIDDEN) {
    if (!from.startsWith(rule.from)) continue;
    const banned = rule.to.find((folder) => to.startsWith(folder));
    if (banned) return `${rule.from} must not import ${banned} (${to})`;
  }
  const mine = feature(from);
  const theirs = feature(to);
  if (mine && theirs && mine !== theirs) {
    return `the ${mine} feature must not import the ${theirs} feature (${to}); move what both use to web/src/components/ or web/src/lib/`;
  }
  return null;
}

export default {
  meta: { type: 'problem', docs: { description: 'keeps the import boundaries between the folders and the client features' }, schema: [] },
  create(context) {
    const file = context.filename;
    const from = fromRoot(file);
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const to = target(file, source.value);
      if (!to) return;
      const why = crossing(from, to);
      if (why) context.report({ node: source, message: why });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
