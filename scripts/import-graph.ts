// `node --import tsx scripts/import-graph.ts [--files] [--dirs]`: the folder import graph of the production
// code, the imports that point up the layer order, sideways imports between peer layers, and folder pairs
// that import each other (lib/testing/import-graph.ts). With --files, every offending import is listed file
// by file; with --dirs, the graph and its cycles are between directories (lib/api/v3/routes, …), not layers.
import { directoryOf, fileImports, folderGraph, folderOf, LAYERS } from '../lib/testing/import-graph';

const showFiles = process.argv.includes('--files');
const report = folderGraph(fileImports(process.cwd()), process.argv.includes('--dirs') ? directoryOf : folderOf);

console.log('Layer order (top first):');
for (const layer of LAYERS) console.log(`  ${layer.join(', ')}`);
console.log('\nFolder graph (production code; number of importing statements):');
for (const [from, row] of [...report.edges].sort(([a], [b]) => a.localeCompare(b))) {
  const targets = [...row].sort(([a], [b]) => a.localeCompare(b)).map(([to, list]) => `${to} (${list.length})`);
  console.log(`  ${from} → ${targets.join(', ')}`);
}
const list = (title: string, items: { from: string; to: string }[]) => {
  console.log(`\n${title}: ${items.length}`);
  if (showFiles) for (const imp of items) console.log(`  ${imp.from} → ${imp.to}`);
};
list('Upward imports', report.upward);
list('Sideways imports between peer layers', report.sideways);
console.log(`\nTwo-way folder cycles: ${report.cycles.length}`);
for (const [a, b] of report.cycles) console.log(`  ${a} ⇄ ${b}`);
