import { z } from "zod";
import { errorMessage } from "@/lib/errors";
import { parseModelRef } from "@/lib/llm/model-ref";
import { parseRoleMap } from "./roles";

// Every setting the service reads, parsed once so a typo fails loudly at start-up, not mid-run.
const flag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = z.coerce.number().int().positive();

// A model as an agent's `llm` names it; the provider's own variables are read where used.
const modelName = z
  .string()
  .trim()
  .min(1)
  .superRefine((v, ctx) => {
    const { error } = parseModelRef(v);
    if (error) ctx.addIssue({ code: "custom", message: error });
  });

const EnvSchema = z.object({
  PORT: positiveInt.default(3000),
  DATA_DIR: z.string().min(1).default("./.data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  CREWS_DIR: z.string().min(1).default("./crews"),
  CREW_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  DEFAULT_LLM: modelName.default("offline"),
  // Every agent of every crew runs on this model instead of its own (demos, CI, trying a crew).
  LLM_OVERRIDE: modelName.optional(),
  RUN_WORKER: flag.default(true),
  // A run spends nearly all its time waiting on a model, and a worker's CPU per task is a couple of
  // milliseconds, so one worker can keep many runs going (`max_rpm` limits an agent's model calls).
  WORKER_CONCURRENCY: positiveInt.default(32),
  // How long a worker owns an execution without renewing; a crashed worker's runs resume after it.
  WORKER_LEASE_MS: positiveInt.default(30_000),
  WORKER_POLL_MS: positiveInt.default(500),
  // On SIGTERM: how long running executions may take to finish (then they are handed back) and
  // due webhooks to be delivered, before the process exits.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(20_000),
  TASK_TIMEOUT_SECONDS: positiveInt.default(600),
  // How long a reviewer's claim on a review holds before others may take it.
  REVIEW_CLAIM_MINUTES: positiveInt.default(30),
  // How often the review clock looks for reminders and deadlines it has not been woken for.
  REVIEW_CLOCK_MS: positiveInt.default(5_000),
  // The scheduler wakes at the next due time it knows, and looks again at least this often (for
  // schedules changed in another process while a NOTIFY was lost).
  SCHEDULER_POLL_MS: positiveInt.default(30_000),
  // Experiments: a worker wakes when one of their runs ends (NOTIFY) and otherwise looks this
  // often (for a lapsed lease, a lost NOTIFY); its claim on one lasts this long unrenewed.
  EXPERIMENT_POLL_MS: positiveInt.default(2_000),
  EXPERIMENT_LEASE_MS: positiveInt.default(30_000),
  // Tests only: the scheduler reads the time from this file (one ISO instant), so a test moves the
  // clock across due times and daylight-saving changes instead of waiting for them.
  SCHEDULER_CLOCK_FILE: z.string().min(1).optional(),
  // Deliveries each trigger accepts per minute, per process; 429 beyond it (and logged).
  TRIGGER_RATE_PER_MINUTE: positiveInt.default(60),
  MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  AGENT_MAX_STEPS: positiveInt.default(12),
  // The offline model pauses this long per step so a run can be watched; 0 for instant.
  OFFLINE_MODEL_DELAY_MS: z.coerce.number().int().min(0).default(250),
  // The agent protocols served (/api/mcp, /api/a2a, /api/ag-ui), comma-separated; "none" for none.
  AGENT_PROTOCOLS: z
    .string()
    .default("mcp,a2a,ag-ui")
    .transform((v) =>
      v.trim() === "none"
        ? []
        : v
            .split(",")
            .map((p) => p.trim())
            .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(["mcp", "a2a", "ag-ui"], { error: 'each must be mcp, a2a or ag-ui (or "none")' }),
      ),
    ),
  // Requests each token (or signed-in person) may make per minute, per process; 429 beyond it.
  RATE_LIMIT_PER_MINUTE: positiveInt.default(6000),
  // Event streams (live timelines) open at once, per caller (429 beyond) and in all (503 beyond),
  // per process: each holds a connection for as long as the client stays.
  STREAM_LIMIT_PER_CALLER: positiveInt.default(50),
  STREAM_LIMIT_TOTAL: positiveInt.default(1000),
  // Dashboard sign-in: the session secret (generated into DATA_DIR when unset) and the first admin.
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // The key(s) sealing secrets saved in the database, comma-separated: the first seals, all
  // unseal (rotation). Generated into DATA_DIR when unset. Each at least 32 characters.
  ENCRYPTION_KEY: z
    .string()
    .refine(
      (v) => v.split(",").every((k) => k.trim().length >= 32),
      "each comma-separated key must be at least 32 characters",
    )
    .optional(),
  ADMIN_EMAIL: z.email("must be an email address").optional(),
  ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  // Behind a reverse proxy that sets X-Forwarded-Host and appends the caller's address to
  // X-Forwarded-For: believe those headers (same-origin checks, sign-in throttling). Off, they are
  // ignored: anyone can send them.
  TRUST_PROXY: flag.default(false),
  // Standard Webhooks signing secret; generated into DATA_DIR when unset.
  WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, "must look like whsec_<base64>")
    .optional(),
  // CIDRs webhook URLs may reach although private/loopback (e.g. 127.0.0.0/8,10.1.0.0/16).
  WEBHOOK_ALLOWED_NETWORKS: z.string().default(""),
  // The same for remote deployments' base URLs (set by administrators).
  DEPLOYMENT_ALLOWED_NETWORKS: z.string().default(""),
  // How long one request to a remote deployment may take before it counts as unreachable.
  DEPLOYMENT_TIMEOUT_MS: positiveInt.default(10_000),
  // The address remote deployments call back (webhooks); defaults to http://localhost:PORT.
  PUBLIC_URL: z.url().optional(),
  // Delays before each attempt (the first is the immediate one): ms, or with s/m/h.
  WEBHOOK_RETRY_SCHEDULE: z.string().default("0,5s,5m,30m,2h,5h,10h,10h"),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(15_000),
  // Deliveries under way at once; also the size of a claim (64: a claim and a record per
  // batch keep the embedded database from being the limit on throughput).
  WEBHOOK_CONCURRENCY: positiveInt.default(64),
  // How long the review link in a notification (e-mail, Slack) works: 7 days unless said.
  NOTIFY_LINK_TTL_HOURS: positiveInt.default(168),
  // The highest issue priority the tracker accepts (0 = none, 1 = urgent … 4 = low).
  TRACKER_PRIORITY_MAX: z.coerce.number().int().min(1).max(10).default(4),
  // Linear instead of the embedded tracker; LINEAR_API_URL points elsewhere (tests use a loopback fake).
  LINEAR_API_KEY: z.string().min(1).optional(),
  LINEAR_API_URL: z.url().default("https://api.linear.app/graphql"),
  // Connect Linear by OAuth (or save the app's id and secret in Settings); the endpoints default
  // to Linear's and point elsewhere only for tests.
  LINEAR_CLIENT_ID: z.string().min(1).optional(),
  LINEAR_CLIENT_SECRET: z.string().min(1).optional(),
  LINEAR_OAUTH_AUTHORIZE_URL: z.url().default("https://linear.app/oauth/authorize"),
  LINEAR_OAUTH_TOKEN_URL: z.url().default("https://api.linear.app/oauth/token"),
  LINEAR_OAUTH_REVOKE_URL: z.url().default("https://api.linear.app/oauth/revoke"),
  // Token the agent runtime presents for integration actions; generated into DATA_DIR when unset.
  SERVICE_PLATFORM_INTEGRATION_TOKEN: z.string().min(16).optional(),
  // Agents' tools (lib/tools): each call's time-out, the most calls in one task attempt, and the
  // longest result kept in the event log (longer ones are cut there and kept whole as a file).
  TOOL_TIMEOUT_SECONDS: positiveInt.default(60),
  TOOL_MAX_CALLS_PER_TASK: positiveInt.default(50),
  TOOL_RESULT_MAX_CHARS: positiveInt.default(16_000),
  // CIDRs the web tools and MCP servers over HTTP may reach although private or loopback.
  TOOL_ALLOWED_NETWORKS: z.string().default(""),
  // Built-in toolkit (lib/tools/builtin): settings added here.
  // scrape_website: the most bytes read of a page, and how long the whole fetch may take.
  SCRAPE_MAX_BYTES: positiveInt.default(2 * 1024 * 1024),
  SCRAPE_TIMEOUT_SECONDS: positiveInt.default(20),
  // web_search: the provider, its key, and its base URL (each provider's public one by default;
  // required for searxng, which is always someone's own server).
  SEARCH_PROVIDER: z.enum(["serper", "tavily", "brave", "searxng"]).optional(),
  SEARCH_API_KEY: z.string().min(1).optional(),
  SEARCH_URL: z.url().optional(),
  // Workspace files (read_file, write_file): the largest file read or written, in bytes.
  WORKSPACE_MAX_FILE_BYTES: positiveInt.default(1024 * 1024),
  // MCP servers (lib/tools/mcp): settings added here.
  // A pooled MCP connection unused this long is closed (a stdio server's process ends with it).
  MCP_IDLE_SECONDS: positiveInt.default(900),
  // Observability (lib/telemetry, lib/metrics): settings added here. The OTEL_* variables
  // (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, …) are read by OpenTelemetry itself.
  // Prompts, completions and tool arguments/results go into spans only when this is on.
  CREWDECK_OTEL_CAPTURE_CONTENT: flag.default(false),
  // CIDRs whose clients may scrape /api/metrics without a token (e.g. 10.0.0.0/8 for Prometheus).
  METRICS_ALLOWED_NETWORKS: z.string().default(""),
  // A worker on its own (`npm run worker`) serves GET /metrics on this port (unset: it does not).
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Single sign-on (lib/auth/sso-*.ts): settings added here. OpenID Connect is on when
  // OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all set.
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // The sign-in button reads "Sign in with <OIDC_NAME>".
  OIDC_NAME: z.string().trim().min(1).max(60).default("single sign-on"),
  OIDC_SCOPES: z.string().trim().min(1).default("openid email profile"),
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default("groups"),
  // group=role pairs, comma-separated (crewdeck-admins=admin,crewdeck-reviewers=reviewer).
  OIDC_ROLE_MAP: z
    .string()
    .default("")
    .superRefine((v, ctx) => {
      try {
        parseRoleMap(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: errorMessage(err) });
      }
    }),
  // The role of someone in no mapped group; "none" refuses them.
  OIDC_DEFAULT_ROLE: z.enum(["viewer", "operator", "reviewer", "admin", "none"]).default("viewer"),
  // How long a confirmation of someone's groups (the provider's userinfo) is trusted; 0: every request.
  OIDC_RECHECK_SECONDS: z.coerce.number().int().min(0).default(0),
  // false: only the ADMIN_EMAIL account may still sign in with a password (recovery).
  PASSWORD_SIGN_IN: flag.default(true),
  // Retention (lib/retention): finished runs older than RETENTION_DAYS are deleted (unset: kept
  // for ever; a crew's `retention_days` overrides it); the review ledger of a deleted run is kept
  // until its newest entry is LEDGER_RETENTION_DAYS old (unset: for ever). The sweeper runs every
  // RETENTION_SWEEP_MS in each worker, deleting RETENTION_BATCH_SIZE runs per transaction.
  RETENTION_DAYS: positiveInt.optional(),
  LEDGER_RETENTION_DAYS: positiveInt.optional(),
  RETENTION_SWEEP_MS: positiveInt.default(600_000),
  RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  // bench/status.mjs's baseline route (app/api/bench/…): 404 unless this is on. Never in production.
  BENCH_ROUTES: flag.default(false),
  // Model providers' keys and base URLs, LiteLLM's names (lib/llm/providers.ts reads them all).
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.url().optional(),
  AZURE_API_BASE: z.url().optional(),
  AZURE_API_VERSION: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(-preview)?$/, "must look like 2024-10-21 or 2025-01-01-preview")
    .optional(),
  OLLAMA_API_BASE: z.url().optional(),
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  // Empty variables count as unset, as in most shells' `FOO= npm start`.
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}
