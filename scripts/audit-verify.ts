// `npm run audit:verify -- <execution-id>… | --all | --file <export.json>`: checks decision ledgers.

import fs from "node:fs";
import { parseArgs } from "node:util";
import { env } from "@/lib/config/env";
import { LedgerExportSchema } from "@/lib/contract/ledger";
import { readLiveLock } from "@/lib/db/embedded-lock";
import { errorMessage } from "@/lib/errors";
import type { LedgerEntry } from "@/lib/ledger/entry";
import { type ChainVerdict, verifyChain } from "@/lib/ledger/verify";

const USAGE = `Usage:
  npm run audit:verify -- <execution-id> [<execution-id>…]   runs' ledgers, from the database
  npm run audit:verify -- --all                             every run that has a ledger
  npm run audit:verify -- --file <export.json>              an export (GET …/ledger?download=1), no database
Exit code 1 when any chain is broken.`;

/** One line per run: what an auditor reads. */
function report(label: string, v: ChainVerdict) {
  if (v.ok && v.entries === 0) return `${label}  no ledger entries`;
  if (v.ok) return `${label}  intact (${v.entries} entries, head ${v.head_hash})`;
  return `${label}  BROKEN at #${v.first_bad?.position}: ${v.first_bad?.reason} (${v.entries} entries)`;
}

async function fromDatabase(ids: string[], all: boolean): Promise<[string, LedgerEntry[]][]> {
  const e = env();
  // The embedded database has one holder: while a server runs, ask it (or verify an export).
  const holder = e.DATABASE_URL ? undefined : readLiveLock(e.DATA_DIR);
  if (holder) {
    throw new Error(
      `The embedded database in ${e.DATA_DIR} is held by the server (process ${holder.pid}). ` +
        "Ask it instead — GET /api/crews/<crew>/executions/<id>/ledger/verify — or download the " +
        "ledger (…/ledger?download=1) and run `npm run audit:verify -- --file <it>`, or stop the server.",
    );
  }
  const { getDb } = await import("@/lib/db");
  const { ledgerRuns, listLedger } = await import("@/lib/ledger/list-entries");
  const db = await getDb();
  try {
    const runs = all ? await ledgerRuns({ q: db }) : ids.map((id) => id.toLowerCase());
    const out: [string, LedgerEntry[]][] = [];
    for (const id of runs) out.push([id, await listLedger({ q: db, id })]);
    return out;
  } finally {
    await db.close();
  }
}

function fromFile(file: string): [string, LedgerEntry[]][] {
  const parsed = LedgerExportSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!parsed.success) {
    throw new Error(`${file} is not a ledger export: ${parsed.error.issues[0]?.message ?? ""}`);
  }
  return [[file, parsed.data.entries as LedgerEntry[]]];
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { all: { type: "boolean" }, file: { type: "string" }, help: { type: "boolean" } },
  });
  const modes = [values.all, values.file !== undefined, positionals.length > 0].filter(Boolean);
  if (values.help || modes.length !== 1) throw new Error(USAGE);
  const runs = values.file
    ? fromFile(values.file)
    : await fromDatabase(positionals, values.all === true);
  if (!runs.length) console.log("No run has a ledger yet.");
  let broken = 0;
  for (const [label, entries] of runs) {
    const verdict = verifyChain(entries);
    if (!verdict.ok) broken++;
    console.log(report(label, verdict));
  }
  return broken ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(errorMessage(err));
    process.exit(2);
  },
);
