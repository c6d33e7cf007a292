// `npm run token|worker|secrets:reseal|audit:verify`: runs scripts/<name>.ts as one JavaScript
// file, bundled with esbuild at first use and again whenever a source is newer than the bundle.
// Loaded module by module through tsx's hooks, a `token list` cost 1.3 CPU-s; bundled, 0.5.
// Packages stay outside the bundle and load from node_modules as usual.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const COMMANDS = ["token", "worker", "reseal-secrets", "audit-verify"];
// What a bundle is made of: a newer file here makes it again.
const SOURCES = ["lib", "scripts", "tsconfig.json", "package-lock.json"];

const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name ?? "")) {
  console.error(`Usage: node scripts/cli.mjs <${COMMANDS.join(" | ")}> [arguments]`);
  process.exit(2);
}

function newestMtime(p) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(p)
    .reduce((max, entry) => Math.max(max, newestMtime(path.join(p, entry))), stat.mtimeMs);
}

const entry = path.join(root, "scripts", `${name}.ts`);
// Inside the project, so that the packages the bundle imports resolve from its node_modules.
const bundle = path.join(root, "node_modules", ".cache", "crewdeck-cli", `${name}.mjs`);
const made = fs.statSync(bundle, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (made <= Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))))) {
  const { build } = await import("esbuild");
  // Written aside and renamed: two commands started at once never read half a bundle.
  const aside = `${bundle}.${process.pid}.tmp`;
  await build({
    entryPoints: [entry],
    outfile: aside,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    conditions: ["react-server"],
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
  });
  fs.renameSync(aside, bundle);
}

// The command reads its arguments as if it had been started on its own.
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(bundle).href);
