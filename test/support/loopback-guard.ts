// The loopback guard, for the TypeScript that imports it by this name: one implementation, in
// plain JavaScript (loopback-guard.mjs), which every process the suite starts also preloads.
export * from "./loopback-guard.mjs";
