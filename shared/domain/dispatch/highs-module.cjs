// HiGHS's CommonJS build, loaded with require() on purpose: its ES module build finds highs.wasm through
// import.meta.url, which a CommonJS Lambda bundle does not have; the CommonJS build uses __dirname, and the
// bundle ships highs.wasm beside itself (lib/api/service-function.ts).
/* global __dirname, __filename, WebAssembly */
const { existsSync } = require('node:fs');
const { readFile } = require('node:fs/promises');
const { createRequire } = require('node:module');
const path = require('node:path');

const loadHighs = require('highs');

// Where highs.js itself reads highs.wasm (Emscripten's scriptDirectory, the directory of the code defining
// it): beside the bundle in a Lambda, in the package's build folder when run from the source tree. The
// package is resolved through createRequire so that esbuild leaves it alone (a bundle never gets there).
// Found on first use, not at load: a bundle that only imports this module (and never solves) must load
// without highs.wasm beside it.
function wasmFile() {
  const besideBundle = path.join(__dirname, 'highs.wasm');
  return existsSync(besideBundle) ? besideBundle : path.join(path.dirname(createRequire(__filename).resolve('highs')), 'highs.wasm');
}

/** highs.wasm compiled once: every instance of it shares the code (and what V8 has tiered up of it). */
async function compileHighs() {
  return WebAssembly.compile(await readFile(wasmFile()));
}

/**
 * A fresh HiGHS runtime, with its own linear memory, of a compiled module. Emscripten's `instantiateWasm`
 * hook (absent from the package's InitOptions type) receives the imports the glue built; the glue awaits
 * `receive` without a rejection path, so a failed instantiation rejects through the outer promise.
 */
function instantiateHighs(compiled) {
  return new Promise((resolve, reject) => {
    const instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(compiled, imports).then(receive, reject);
      return {};
    };
    loadHighs({ instantiateWasm }).then(resolve, reject);
  });
}

module.exports = { compileHighs, instantiateHighs };
