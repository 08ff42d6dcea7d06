// ESLint for the gallery's JavaScript (make lint runs it on the whole repository).
//
// The gallery's files are classic scripts (no build step; the page works from file://):
// browser globals, plus module and require for the files that Node's unit tests load.
// The unit tests and this file are CommonJS under Node.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["node_modules/", ".venv/", "output/", "build/"] },
  js.configs.recommended,
  {
    files: ["pipeline/reports/gallery_site/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, module: "readonly", require: "readonly" },
    },
    rules: { strict: ["error", "function"] },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: globals.node },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
