// Makes the tests' migrated PGlite template (pglite-template.ts) and prints its folder.
import { ensureTemplate } from "./pglite-template";

console.log(await ensureTemplate());
