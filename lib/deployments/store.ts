import crypto from "node:crypto";
import { z } from "zod";
import { assertCan } from "@/lib/auth/access";
import type { Principal } from "@/lib/auth/principal";
import { seal, unseal } from "@/lib/config/encryption";
import { type DeploymentView, DeploymentViewSchema } from "@/lib/contract/admin";
import type { Db, Queryable } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";

// A remote deployment: one crew served elsewhere over the Crew Execution Service API (another
// Crewdeck's /api/crews/<crew>, or a CrewAI deployment's URL). Its token is sealed at rest and
// only ever leaves this server towards that deployment.
export const DeploymentInputSchema = z
  .object({
    name: z.string().trim().min(1, "name is required").max(100),
    base_url: z
      .url({ protocol: /^https?$/, error: "base_url must be an http(s) URL" })
      .max(2000)
      .transform((u) => u.replace(/\/+$/, "")),
    token: z.string().trim().min(1, "token is required").max(4000),
    webhook_secret: z
      .string()
      .trim()
      .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "webhook_secret must look like whsec_<base64>")
      .optional()
      .or(z.literal("").transform(() => undefined)),
  })
  .meta({ id: "DeploymentInput" });
// PATCH: every field optional; a blank token or webhook_secret keeps the saved one (write-only).
export const DeploymentPatchSchema = z
  .object({
    name: DeploymentInputSchema.shape.name.optional(),
    base_url: DeploymentInputSchema.shape.base_url.optional(),
    token: z
      .string()
      .trim()
      .max(4000)
      .optional()
      .transform((t) => t || undefined),
    webhook_secret: DeploymentInputSchema.shape.webhook_secret,
  })
  .meta({ id: "DeploymentPatch" });

export type { DeploymentView };
export type Deployment = DeploymentView & { token: string; webhook_secret: string | null };

const Row = DeploymentViewSchema.extend({
  token_sealed: z.string(),
  webhook_secret_sealed: z.string().nullable(),
});
type Row = z.infer<typeof Row>;
const COLUMNS = `id, slug, name, base_url, token_sealed, webhook_secret_sealed,
  webhook_secret_sealed IS NOT NULL AS signs_webhooks, created_at::text`;

const view = ({ token_sealed: _t, webhook_secret_sealed: _w, ...v }: Row): DeploymentView => v;

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "deployment";

/** The deployments the caller may see (their names and URLs; never their secrets). */
export async function listDeployments(db: Db, principal: Principal): Promise<DeploymentView[]> {
  assertCan(principal);
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM deployments ORDER BY name`, [], Row);
  return rows.map(view);
}

/** The deployment with its secrets, for calling it; 404 when there is none by that slug. */
export async function getDeploymentOrThrow(q: Queryable, slug: string): Promise<Deployment> {
  const { rows } = await q.query(`SELECT ${COLUMNS} FROM deployments WHERE slug = $1`, [slug], Row);
  const row = rows[0];
  if (!row) throw errors.notFound(`No deployment named '${slug}'.`);
  return {
    ...view(row),
    token: unseal(row.token_sealed),
    webhook_secret: row.webhook_secret_sealed ? unseal(row.webhook_secret_sealed) : null,
  };
}

export async function createDeployment(
  db: Db,
  principal: Principal,
  input: z.infer<typeof DeploymentInputSchema>,
): Promise<DeploymentView> {
  const base = slugify(input.name);
  // The slug is part of webhook URLs handed to the remote: unique, and stable once chosen.
  for (let n = 1; n < 100; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const { rows } = await db.query(
      `INSERT INTO deployments (id, slug, name, base_url, token_sealed, webhook_secret_sealed, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (slug) DO NOTHING RETURNING ${COLUMNS}`,
      [
        crypto.randomUUID(),
        slug,
        input.name,
        input.base_url,
        seal(input.token),
        input.webhook_secret ? seal(input.webhook_secret) : null,
        principal.kind === "user" ? principal.userId : null,
      ],
      Row,
    );
    if (rows[0]) return view(rows[0]);
  }
  throw new AppError("conflict", 409, "Too many deployments share this name; choose another.");
}

const originOf = (url: string) => new URL(url).origin;

export async function updateDeployment(
  db: Db,
  slug: string,
  patch: z.infer<typeof DeploymentPatchSchema>,
): Promise<DeploymentView> {
  // The token is only ever sent to the deployment's origin. Whoever moves the deployment
  // elsewhere must therefore know its token (enter it again), or changing the URL followed by a
  // Test connection would hand the stored token to a host of their choosing.
  let guard = "";
  const params: unknown[] = [slug];
  if (patch.base_url !== undefined && patch.token === undefined) {
    const { rows } = await db.query(
      "SELECT base_url FROM deployments WHERE slug = $1",
      [slug],
      z.object({ base_url: z.string() }),
    );
    const current = rows[0];
    if (!current) throw errors.notFound(`No deployment named '${slug}'.`);
    if (originOf(current.base_url) !== originOf(patch.base_url)) {
      throw errors.unprocessable(
        "A new base_url on another origin needs the deployment's token again: send `token` too.",
        { errors: [{ path: "token", message: "re-enter the token when base_url changes origin" }] },
      );
    }
    // Written only if the URL is still the one checked: a concurrent PATCH that moved it in
    // between makes this one fail (409) instead of slipping past the check.
    params.push(current.base_url);
    guard = ` AND base_url = $${params.length}`;
  }
  const sets: string[] = ["updated_at = now()"];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (patch.name !== undefined) set("name", patch.name);
  if (patch.base_url !== undefined) set("base_url", patch.base_url);
  if (patch.token !== undefined) set("token_sealed", seal(patch.token));
  if (patch.webhook_secret !== undefined) set("webhook_secret_sealed", seal(patch.webhook_secret));
  const { rows } = await db.query(
    `UPDATE deployments SET ${sets.join(", ")} WHERE slug = $1${guard} RETURNING ${COLUMNS}`,
    params,
    Row,
  );
  if (!rows[0] && guard) throw errors.conflict("The deployment changed meanwhile; try again.");
  if (!rows[0]) throw errors.notFound(`No deployment named '${slug}'.`);
  return view(rows[0]);
}

/** Removes the deployment and the record of its runs (the runs themselves live remotely). */
export async function deleteDeployment(db: Db, slug: string) {
  const { rowCount } = await db.query("DELETE FROM deployments WHERE slug = $1", [slug]);
  if (!rowCount) throw errors.notFound(`No deployment named '${slug}'.`);
}
