import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// `import { z } from 'zod'` takes zod's namespace object whole, all 50 locales with it (300 KB in every Lambda
// bundle); a namespace import lets esbuild keep only what is used.
const ZOD_NAMESPACE = {
  selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
  message: "Use `import * as z from 'zod'`: the named import bundles all of zod.",
};

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', '.bundles/', 'coverage/', 'jest.config.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-console': 'off',
      'no-restricted-syntax': ['error', ZOD_NAMESPACE],
    },
  },
  {
    // The few CommonJS shims (a package's CommonJS build loaded on purpose) are plain Node modules.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Domain code stays free of AWS and HTTP (ARCHITECTURE 1).
    files: ['shared/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@aws-sdk/*', 'aws-cdk-lib', '@middy/*', '**/store/**', '**/http/**', '**/events/**'] }],
    },
  },
);
