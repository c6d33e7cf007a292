// The commands behind `npm run token|worker|secrets:reseal|audit:verify` run as one JavaScript
// file each, bundled with esbuild from scripts/<name>.ts. `npm run build` and `npm start`'s build
// make them (`node scripts/cli-bundle.mjs`); scripts/cli.mjs loads the one made of the sources
// there are. Packages stay outside the bundle and load from node_modules as usual.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
export const COMMANDS = ["token", "worker", "reseal-secrets", "audit-verify"];
// What a bundle is made of: any file here changed, added or removed makes it again.
const SOURCES = ["lib", "scripts", "tsconfig.json", "package-lock.json"];
// Inside the project, so that the packages the bundle imports resolve from its node_modules.
const dir = path.join(root, "node_modules", ".cache", "crewdeck-cli");

export const entryOf = (name) => path.join(root, "scripts", `${name}.ts`);

// Each source's path, size and modification time: any change, an older copy put back included
// (an upgrade by `rsync -a` keeps the times it brings), names another bundle.
function listing(p, out = []) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (stat?.isDirectory())
    for (const entry of fs.readdirSync(p).sort()) listing(path.join(p, entry), out);
  else if (stat) out.push(`${path.relative(root, p)} ${stat.size} ${stat.mtimeMs}`);
  return out;
}

/** What names the sources as they are now. */
export function sourcesSignature() {
  return crypto
    .createHash("sha256")
    .update(SOURCES.flatMap((s) => listing(path.join(root, s))).join("\n"))
    .digest("hex")
    .slice(0, 16);
}

/** Where the bundle of command `name` made of the sources named by `signature` is (or would be). */
export const bundlePath = (name, signature) => path.join(dir, `${name}-${signature}.mjs`);

/** esbuild's build function, or undefined where it is not installed (`npm ci --omit=dev`). */
export async function loadEsbuild() {
  try {
    return (await import("esbuild")).build;
  } catch (err) {
    if (err?.code === "ERR_MODULE_NOT_FOUND") return undefined;
    throw err;
  }
}

/**
 * Bundles command `name` into `bundle` with esbuild's `build`; false when a source does not
 * compile (esbuild has printed why).
 */
export async function makeBundle(build, name, bundle) {
  // Written aside and renamed: two commands started at once never read half a bundle.
  const aside = `${bundle}.${process.pid}.tmp`;
  // esbuild prints what does not compile; a stack trace of its own would add nothing.
  const made = await build({
    entryPoints: [entryOf(name)],
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
  if (!made) return false;
  fs.renameSync(aside, bundle);
  // The command's older bundles are never read again.
  for (const old of fs.readdirSync(dir))
    if (old.startsWith(`${name}-`) && old.endsWith(".mjs") && path.join(dir, old) !== bundle)
      fs.rmSync(path.join(dir, old), { force: true });
  return true;
}

/** Makes every command's bundle that the sources as they are have none of; false on a failure. */
export async function makeAllBundles() {
  const build = await loadEsbuild();
  if (!build) {
    console.error("esbuild is not installed: install the dev dependencies to build.");
    return false;
  }
  const signature = sourcesSignature();
  for (const name of COMMANDS) {
    const bundle = bundlePath(name, signature);
    if (fs.existsSync(bundle)) continue;
    if (!(await makeBundle(build, name, bundle))) {
      console.error(`Could not bundle scripts/${name}.ts (above).`);
      return false;
    }
  }
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  process.exit((await makeAllBundles()) ? 0 : 1);
