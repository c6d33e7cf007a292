import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * A CREWS_DIR of the test's own, built from `{ "<slug>/<file>": "<content>" }`; removed after the
 * file's tests. Call at the top level of a test file (it registers the clean-up there).
 */
export function crewsDirMaker(prefix: string) {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  return (files: Record<string, string>): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `crewdeck-${prefix}-`));
    made.push(dir);
    for (const [rel, content] of Object.entries(files)) {
      const file = path.join(dir, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
    return dir;
  };
}
