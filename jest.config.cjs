/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // middy ships ESM only: let swc turn it (and our TypeScript) into CommonJS for jest.
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  testTimeout: 30000,
  setupFiles: ['<rootDir>/test/setup-env.ts'],
};
