/**
 * `npm run house`: the measures tests/unit/house.test.ts holds, printed whole — casts per folder,
 * casts on received data, and every function of 80 lines or more, longest first.
 * `npm run house -- casts lib/engine` lists one folder's casts.
 */
import { fileShape, folderOf, sourceFiles } from "./metrics.ts";

// Piped into `head`, the reader may go before the writer is done: that is the end, not an error.
process.stdout.on("error", () => process.exit(0));

const [what, folder] = process.argv.slice(2);
const shapes = sourceFiles(["app", "components", "lib", "scripts"]).map(fileShape);
const casts = shapes.flatMap((s) => s.casts).filter((c) => /^(lib|app)\//.test(c.file));

if (what === "casts") {
  for (const c of casts.filter((c) => !folder || c.file.startsWith(folder))) {
    console.log(`${c.file}:${c.line}  ${c.text}`);
  }
} else {
  const byFolder = new Map<string, number>();
  for (const c of casts) byFolder.set(folderOf(c.file), (byFolder.get(folderOf(c.file)) ?? 0) + 1);
  console.log(`casts in lib/ and app/: ${casts.length}`);
  console.log(
    [...byFolder]
      .sort((a, b) => b[1] - a[1])
      .map(([f, n]) => `  ${f} ${n}`)
      .join("\n"),
  );
  const received = casts.filter((c) => c.onReceivedData);
  console.log(`casts on received or stored data: ${received.length}`);
  for (const c of received) console.log(`  ${c.file}:${c.line}  ${c.text}`);
  const long = shapes.flatMap((s) => s.functions).filter((f) => f.lines >= 80);
  console.log(
    `functions of 80 lines or more: ${long.length} (150 or more: ${long.filter((f) => f.lines >= 150).length})`,
  );
  for (const f of long.sort((a, b) => b.lines - a.lines)) {
    console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}`);
  }
}
