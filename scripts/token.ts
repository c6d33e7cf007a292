// `npm run token -- create --org | create --user <email> | list | revoke <id|token|prefix>`

import { parseArgs } from "node:util";
import { z } from "zod";
import {
  type CreateTokenInput,
  CreateTokenSchema,
  createToken,
  listTokens,
  revokeToken,
  type TokenSummary,
} from "@/lib/auth/manage-tokens";
import { env } from "@/lib/config/env";
import { localAdminSecret } from "@/lib/config/secrets";
import { CreatedTokenSchema, RevokedSchema, TokensListSchema } from "@/lib/contract/admin";
import { readLiveLock } from "@/lib/db/embedded-lock";
import { errorMessage } from "@/lib/errors";

const USAGE = `Usage:
  npm run token -- create --org [--label <text>]       organization token: every crew, every execution
  npm run token -- create --user <email> [--label …]   user token: only that user's executions
  npm run token -- create --integration [--read-only]  integration token for tracker actions
  npm run token -- list
  npm run token -- revoke <token id | token | prefix>`;

// What a refusal says, when the server said it as a problem.
const ProblemDetail = z.object({ detail: z.string() });

type Backend = {
  create(input: CreateTokenInput): Promise<{ id: string; token: string }>;
  list(): Promise<TokenSummary[]>;
  revoke(ref: string): Promise<number>;
  close(): Promise<void>;
};

// While a server holds the embedded database, go through it; otherwise open the database.
async function backend(): Promise<Backend> {
  const e = env();
  const holder = e.DATABASE_URL ? undefined : readLiveLock(e.DATA_DIR);
  if (holder) {
    const url = `http://127.0.0.1:${holder.port ?? e.PORT}/api/admin/tokens`;
    const call = async <T>(schema: z.ZodType<T>, method: string, body?: unknown): Promise<T> => {
      const res = await fetch(url, {
        method,
        headers: {
          "x-crewdeck-local-admin": localAdminSecret(),
          "content-type": "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const data: unknown = await res.json();
      if (!res.ok)
        throw new Error(String(ProblemDetail.safeParse(data).data?.detail ?? res.statusText));
      return schema.parse(data);
    };
    return {
      create: (token) => call(CreatedTokenSchema, "POST", { action: "create", token }),
      list: async () => (await call(TokensListSchema, "GET")).tokens,
      revoke: async (ref) => (await call(RevokedSchema, "POST", { action: "revoke", ref })).revoked,
      close: async () => {},
    };
  }
  const { getDb } = await import("@/lib/db");
  const db = await getDb();
  return {
    create: (input) => createToken({ db, input }),
    list: () => listTokens({ db }),
    revoke: (ref) => revokeToken({ db, ref }),
    close: () => db.close(),
  };
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      org: { type: "boolean" },
      user: { type: "string" },
      integration: { type: "boolean" },
      "read-only": { type: "boolean" },
      label: { type: "string" },
    },
  });
  const [command, ref] = positionals;
  if (command === "create") {
    const parsed = CreateTokenSchema.safeParse(
      values.integration
        ? {
            kind: "integration",
            access: values["read-only"] ? "read" : "write",
            label: values.label,
          }
        : values.org
          ? { kind: "org", label: values.label }
          : { kind: "user", email: values.user, label: values.label },
    );
    if (
      !parsed.success ||
      [values.org, values.user, values.integration].filter(Boolean).length !== 1
    ) {
      throw new Error(
        `Give exactly one of --org, --user <email> (a valid email) or --integration.\n${USAGE}`,
      );
    }
    const b = await backend();
    const { id, token } = await b.create(parsed.data);
    await b.close();
    const what = {
      org: "an organization",
      user: `a user (${values.user})`,
      integration: `an integration (${values["read-only"] ? "read-only" : "read and write"})`,
    };
    console.log(`Created ${what[parsed.data.kind]} token, id ${id}.`);
    console.log("It is shown once; store it now:\n");
    console.log(token);
    return;
  }
  if (command === "list") {
    const b = await backend();
    const tokens = await b.list();
    await b.close();
    if (!tokens.length) console.log("No tokens yet.");
    for (const t of tokens) {
      const state = t.revoked_at
        ? `revoked ${t.revoked_at}`
        : `last used ${t.last_used_at ?? "never"}`;
      console.log(
        `${t.id}  ${t.prefix}  ${t.kind === "org" ? "org " : `user ${t.email}`}  ${t.label ?? ""}  (${state})`,
      );
    }
    return;
  }
  if (command === "revoke" && ref) {
    const b = await backend();
    const n = await b.revoke(ref);
    await b.close();
    if (!n) throw new Error(`No active token matches '${ref}'.`);
    console.log(`Revoked ${n} token${n > 1 ? "s" : ""}.`);
    return;
  }
  throw new Error(USAGE);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(errorMessage(err));
    process.exit(1);
  },
);
