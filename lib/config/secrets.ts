import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "./env";

// A generated secret never changes while the process runs (rotating one means a restart), and
// some are read on every request (the session secret, by the proxy): read each file once.
const read = new Map<string, string>();

// Secrets the operator did not set are generated once into DATA_DIR (mode 0600) and reused.
export function dataDirSecret(
  name: string,
  generate: () => string = () => crypto.randomBytes(32).toString("base64url"),
): string {
  const file = path.resolve(env().DATA_DIR, "secrets", name);
  const known = read.get(file);
  if (known) return known;
  const value = readOrCreate(path.dirname(file), file, generate);
  read.set(file, value);
  return value;
}

function readOrCreate(dir: string, file: string, generate: () => string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const value = generate();
    try {
      fs.writeFileSync(file, value, { mode: 0o600, flag: "wx" });
      return value;
    } catch {
      return fs.readFileSync(file, "utf8").trim(); // another process won the race
    }
  }
}

/** A secret generated into DATA_DIR earlier, if there is one; never creates it. */
export function existingDataDirSecret(name: string): string | undefined {
  try {
    return fs.readFileSync(path.join(env().DATA_DIR, "secrets", name), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

// Lets a CLI on this machine (which can read DATA_DIR anyway) manage tokens through the running
// server while the server holds the embedded database.
export const localAdminSecret = () => dataDirSecret("local-admin");
