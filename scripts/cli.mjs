// `npm run token|worker|secrets:reseal|audit:verify`: runs scripts/<name>.ts as one JavaScript
// file, bundled with esbuild at first use and again whenever a source differs from the one it was
// made of. Loaded module by module through tsx's hooks, a `token list` cost 1.3 CPU-s; bundled,
// 0.5. Packages stay outside the bundle and load from node_modules as usual.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const COMMANDS = ["token", "worker", "reseal-secrets", "audit-verify"];
// What a bundle is made of: any file here changed, added or removed makes it again.
const SOURCES = ["lib", "scripts", "tsconfig.json", "package-lock.json"];

const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name ?? "")) {
  console.error(`Usage: node scripts/cli.mjs <${COMMANDS.join(" | ")}> [arguments]`);
  process.exit(2);
}

// Each source's path, size and modification time: any change, an older copy put back included
// (an upgrade by `rsync -a` keeps the times it brings), names another bundle.
function listing(p, out = []) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (stat?.isDirectory())
    for (const entry of fs.readdirSync(p).sort()) listing(path.join(p, entry), out);
  else if (stat) out.push(`${path.relative(root, p)} ${stat.size} ${stat.mtimeMs}`);
  return out;
}
const signature = crypto
  .createHash("sha256")
  .update(SOURCES.flatMap((s) => listing(path.join(root, s))).join("\n"))
  .digest("hex")
  .slice(0, 16);

const entry = path.join(root, "scripts", `${name}.ts`);
// Inside the project, so that the packages the bundle imports resolve from its node_modules.
const dir = path.join(root, "node_modules", ".cache", "crewdeck-cli");
const bundle = path.join(dir, `${name}-${signature}.mjs`);
if (!fs.existsSync(bundle)) {
  const { build } = await import("esbuild");
  // Written aside and renamed: two commands started at once never read half a bundle.
  const aside = `${bundle}.${process.pid}.tmp`;
  // esbuild prints what does not compile; a stack trace of its own would add nothing.
  const made = await build({
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
  }).catch(() => undefined);
  if (!made) {
    console.error(`Could not bundle scripts/${name}.ts (above).`);
    process.exit(1);
  }
  fs.renameSync(aside, bundle);
  // The command's older bundles are never read again.
  for (const old of fs.readdirSync(dir))
    if (old.startsWith(`${name}-`) && old.endsWith(".mjs") && path.join(dir, old) !== bundle)
      fs.rmSync(path.join(dir, old), { force: true });
}

// The command reads its arguments as if it had been started on its own.
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(bundle).href);
