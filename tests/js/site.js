// What the gallery's unit tests share: the page's scripts, loaded as Node modules (each
// file exports its API under Node), and the golden cases that tests/js/write_golden.py
// writes from the Python side.
//
// One file a part of the page: game.test.js (the rules and game state), solver.test.js (the
// in-browser solver's verdicts and hints), pack.test.js (deals.js read); the play records'
// tests go beside them as records.test.js; family-game.test.js and family-solver.test.js do
// for All in a Row and the three Golfs what game.test.js and solver.test.js do for Black Hole. `make test` runs every *.test.js here with
// `node --test tests/js/`; a golden file is added to tests/js/write_golden.py's golden_files.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const SITE = path.join(__dirname, "..", "..", "pipeline", "reports", "gallery_site");
const GOLDEN = path.join(__dirname, "golden");

// A script of the page by file name: site("game.js").
function site(name) {
  return require(path.join(SITE, name));
}

// The cases of a golden file by name: golden("rules.json").
function golden(name) {
  return JSON.parse(fs.readFileSync(path.join(GOLDEN, name), "utf8"));
}

module.exports = { site: site, golden: golden };
