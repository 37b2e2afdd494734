import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import pluginQuery from '@tanstack/eslint-plugin-query';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The direction of dependencies (lib/layers.json, README "Architecture"): every production file may import
// only the layers below its own; never a layer above, a peer on its own line, the devnet (start-up wiring
// aside) or test and tool code. Tests and lib/testing may import anything. lib/testing/layers.test.ts
// plants violations and checks this rule reports them.
const root = import.meta.dirname;
const layers = JSON.parse(readFileSync(join(root, 'lib/layers.json'), 'utf8'));
/** A layer name as a path: a folder, or a module directly under lib/ (lib/config → lib/config.ts). */
const pathOf = (name) => (existsSync(join(root, `${name}.ts`)) ? `${name}.ts` : name);

function layerZones() {
  const { order, devnet, toolsOnly } = layers;
  const zones = order.flatMap((layer, i) =>
    layer.map((name) => ({
      target: pathOf(name),
      from: [...order.slice(0, i).flat(), ...layer.filter((peer) => peer !== name), ...(devnet.importedBy.includes(name) ? [] : [devnet.folder]), ...toolsOnly].map(pathOf),
      message: `${name} may import only the layers below it (lib/layers.json; README "Architecture").`,
    })),
  );
  const below = order.findIndex((layer) => layer.includes(devnet.below));
  zones.push({
    target: devnet.folder,
    from: [...order.slice(0, below).flat(), ...toolsOnly].map(pathOf),
    message: `${devnet.folder} is a chain of its own: it may import ${devnet.below} and the layers below it only (lib/layers.json).`,
  });
  return zones;
}

const config = [
  { ignores: ['.next/**', 'node_modules/**', '.atlas/**', '.atlas-bench/**', '.reports/**', 'lib/db/generated/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**'] },
  ...nextVitals,
  ...nextTs,
  ...pluginQuery.configs['flat/recommended'],
  {
    // next's config already registers the jsx-a11y plugin; take the full recommended rule set on top.
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/rules-of-hooks': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'lib/testing/**', 'e2e/**'],
    rules: { 'import/no-restricted-paths': ['error', { basePath: root, zones: layerZones() }] },
  },
];

export default config;
