// HiGHS's CommonJS build, loaded with require() on purpose: its ES module build finds highs.wasm through
// import.meta.url, which a CommonJS Lambda bundle does not have; the CommonJS build uses __dirname, and the
// bundle ships highs.wasm beside itself (lib/api/service-function.ts).
module.exports = require('highs');
