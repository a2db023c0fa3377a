// Data files that packages ship (a gazetteer, time-zone and holiday tables), read on first use instead of
// bundled: inlined, they were most of each Lambda bundle's bytes and its start-up parse. In a Lambda the file
// lies beside the bundle (lib/bundling.ts DATA_FILES copies it there); in the source tree it is read from
// node_modules. CommonJS on purpose, as highs-module.cjs: `__dirname` is the bundle's own folder there.
/* global __dirname, __filename */
const { existsSync, readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');

/** Where `relative` (a path inside package `pkg`) is: beside the bundle, else in the installed package. */
function packageDataFile(pkg, relative) {
  const beside = path.join(__dirname, path.basename(relative));
  if (existsSync(beside)) return beside;
  // Resolved through createRequire so that esbuild leaves it alone; the entry point's folder is walked up to
  // the package's root because not every package exports its package.json.
  let dir = path.dirname(createRequire(__filename).resolve(pkg));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, relative);
}

/** The parsed JSON of a package's data file. */
function readPackageJson(pkg, relative) {
  return JSON.parse(readFileSync(packageDataFile(pkg, relative), 'utf8'));
}

module.exports = { packageDataFile, readPackageJson };
