// The layering of docs/architecture.md, checked by tests/unit/layers.test.ts (`npm test`) and by
// hand with `npx depcruise app components lib scripts instrumentation.ts proxy.ts`.

// From the ground up. A module may import its own unit and the layers below its own, never a
// layer above it nor a unit beside it in its own layer. A unit is a folder, or one file.
const LAYERS = [
  ["lib/contract"],
  ["lib/errors.ts", "lib/util", "lib/format"],
  ["lib/llm", "lib/outputs"],
  ["lib/config"],
  ["lib/db"],
  ["lib/auth"],
  ["lib/http"],
  ["lib/views", "lib/tracker"],
  ["lib/crew"],
  ["lib/run-model"],
  ["lib/metrics"],
  ["lib/ledger", "lib/webhooks"],
  ["lib/notify"],
  ["lib/telemetry"],
  ["lib/tools"],
  ["lib/runs"],
  ["lib/reviews"],
  ["lib/flows"],
  ["lib/engine"],
  ["lib/retention", "lib/events", "lib/deployments"],
  ["lib/schedules", "lib/triggers", "lib/experiments", "lib/protocols"],
  ["lib/server"],
  ["lib/api/endpoints"],
  ["lib/api/route.ts", "lib/api/openapi", "lib/api/client"],
  ["components/ui"],
  ["components"],
  ["app", "instrumentation.ts", "proxy.ts", "scripts"],
];

// Imports that still run up a layer, each one named: the rule holds for everything else.
const EXCEPTIONS = [
  {
    from: "lib/auth/manage-tokens.ts",
    to: "lib/tracker/integration-token.ts",
    why: "a token of kind integration is the tracker's, minted there",
  },
];

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const units = LAYERS.flat();
const tail = (unit) => (unit.endsWith(".ts") ? "$" : "(/|\\.ts$)");
// The files of a unit: a file unit is itself; a folder is all under it but its deeper units.
function member(unit) {
  const deeper = units.filter((u) => u.startsWith(`${unit}/`));
  const not = deeper.length ? `(?!(${deeper.map((u) => escapeRe(u) + tail(u)).join("|")}))` : "";
  return `^${not}${escapeRe(unit)}${tail(unit)}`;
}
const rankOf = (file) => LAYERS.findIndex((l) => l.some((u) => new RegExp(member(u)).test(file)));
const unitOf = (file) => units.find((u) => new RegExp(member(u)).test(file));
// What a unit must not import: its neighbours in its layer and every layer above.
const above = (unit, rank) => [
  ...LAYERS[rank].filter((u) => u !== unit),
  ...LAYERS.slice(rank + 1).flat(),
];

function layerRules() {
  return LAYERS.flatMap((layer, rank) =>
    layer.map((unit) => ({
      name: `layer:${unit}`,
      comment: `${unit} imports only its own folder and the layers below it (docs/architecture.md)`,
      severity: "error",
      from: {
        path: member(unit),
        pathNot: EXCEPTIONS.filter((e) => unitOf(e.from) === unit).map(
          (e) => `^${escapeRe(e.from)}$`,
        ),
      },
      to: { path: above(unit, rank).map(member) },
    })),
  );
}

// An excepted file keeps the rule of its unit for every other import.
function exceptionRules() {
  const files = [...new Set(EXCEPTIONS.map((e) => e.from))];
  return files.map((from) => {
    const list = EXCEPTIONS.filter((e) => e.from === from);
    const unit = unitOf(from);
    return {
      name: `layer:${unit}`,
      comment: `excepted: ${list.map((e) => `${e.to} (${e.why})`).join("; ")}`,
      severity: "error",
      from: { path: `^${escapeRe(from)}$` },
      to: {
        path: above(unit, rankOf(from)).map(member),
        pathNot: list.map((e) => `^${escapeRe(e.to)}$`),
      },
    };
  });
}

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "a cycle ties its modules into one: move the shared part down instead",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-imports-routing",
      comment:
        "lib/api/route.ts composes the domains and lib/http/problem.ts renders their errors: " +
        "a domain module importing either would tie the domains into one knot",
      severity: "error",
      from: { path: "^lib/", pathNot: "^lib/(http|api)/" },
      to: { path: "^lib/(api/route|http/problem)\\.ts$" },
    },
    ...layerRules(),
    ...exceptionRules(),
  ],
  options: {
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with, so swc reads the
    // sources; its reader has no JSX, so .tsx files are nodes whose own imports go unread here
    // (Biome's noImportCycles and noRestrictedImports cover those, biome.json).
    parser: "swc",
    tsPreCompilationDeps: true,
    extraExtensionsToScan: [".tsx"],
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(tests|e2e|bench|\\.next|node_modules)/" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
