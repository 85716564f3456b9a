// `prepack` of the repository's package.json: `npm pack` (or `npm publish`) at the root would pack
// the development manifest, whose install warns every consumer about its `prepare` script. The
// package is packed from a staged copy with a manifest of its own, which has no scripts, so this
// never runs there: `npm run package` (scripts/pack.ts) packs with --ignore-scripts.
console.error("npm pack packs the repository's development manifest: run `npm run package` (dist/payin-acceptance-contract-<version>.tgz)");
process.exitCode = 1;
