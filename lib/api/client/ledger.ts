import type { LedgerEntry, LedgerVerdict } from "@/lib/contract/ledger";
import { contract, request } from "./request";

const ledgerSchemas = contract(() => import("@/lib/contract/ledger"));

// A run's decision ledger: GET …/executions/{id}/ledger and …/ledger/verify.
export type { LedgerEntry, LedgerVerdict } from "@/lib/contract/ledger";

const base = (crew: string, id: string) =>
  `/api/crews/${encodeURIComponent(crew)}/executions/${id}/ledger`;

export const ledgerApi = {
  entries: async (crew: string, id: string): Promise<LedgerEntry[]> =>
    (await request(ledgerSchemas("LedgerResponseSchema"), "GET", base(crew, id))).entries,
  verify: (crew: string, id: string): Promise<LedgerVerdict> =>
    request(ledgerSchemas("LedgerVerdictSchema"), "GET", `${base(crew, id)}/verify`),
  /** The export, as a file to save (Content-Disposition: attachment). */
  exportUrl: (crew: string, id: string) => `${base(crew, id)}?download=1`,
};
