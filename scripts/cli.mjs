// `npm run token|worker|secrets:reseal|audit:verify`: runs scripts/<name>.ts from its bundle, made
// by `npm run build` (scripts/cli-bundle.mjs). Loaded module by module through tsx's hooks, a
// `token list` cost 1.3 CPU-s; bundled, 0.5. Where a source differs from the ones the bundle was
// made of, a checkout with esbuild (a developer's) bundles it again here; an install without it
// (`--omit=dev`) says to build.
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import {
  bundlePath,
  COMMANDS,
  entryOf,
  loadEsbuild,
  makeBundle,
  sourcesSignature,
} from "./cli-bundle.mjs";

const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name ?? "")) {
  console.error(`Usage: node scripts/cli.mjs <${COMMANDS.join(" | ")}> [arguments]`);
  process.exit(2);
}

const bundle = bundlePath(name, sourcesSignature());
if (!fs.existsSync(bundle)) {
  const build = await loadEsbuild();
  if (!build) {
    console.error(`No build of scripts/${name}.ts matches the sources: run \`npm run build\`.`);
    process.exit(1);
  }
  if (!(await makeBundle(build, name, bundle))) {
    console.error(`Could not bundle scripts/${name}.ts (above).`);
    process.exit(1);
  }
}

// The command reads its arguments as if it had been started on its own.
process.argv = [process.argv[0], entryOf(name), ...args];
await import(pathToFileURL(bundle).href);
