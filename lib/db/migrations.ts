import { z } from "zod";
import { num } from "./columns";
import type { Db } from "./types";

// Append-only: never edit a shipped migration, add the next one.
const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: "executions, events, users, tokens",
    sql: `
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE,
        name text,
        role text NOT NULL DEFAULT 'operator'
          CHECK (role IN ('viewer', 'operator', 'reviewer', 'admin')),
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('org', 'user')),
        user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        display_prefix text NOT NULL,
        label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        CHECK ((kind = 'user') = (user_id IS NOT NULL))
      );

      CREATE TABLE executions (
        id uuid PRIMARY KEY,
        crew text NOT NULL,
        status text NOT NULL CHECK (status IN
          ('queued', 'running', 'pending_human_input', 'completed', 'error', 'cancelled')),
        owner_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        token_id uuid,
        inputs jsonb NOT NULL,
        meta jsonb,
        webhooks jsonb NOT NULL DEFAULT '{}'::jsonb,
        crew_snapshot jsonb NOT NULL,
        tasks jsonb NOT NULL,
        current_task text,
        pending_human_input jsonb,
        last_step jsonb,
        result text,
        error text,
        token_usage jsonb NOT NULL DEFAULT '{"input_tokens":0,"output_tokens":0,"total_tokens":0}'::jsonb,
        last_seq integer NOT NULL DEFAULT 0,
        lease_owner text,
        lease_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      );
      -- Workers look only at claimable rows: a small partial index, whatever the history's size.
      CREATE INDEX executions_claimable ON executions (created_at)
        WHERE status IN ('queued', 'running');
      CREATE INDEX executions_owner ON executions (owner_user_id, created_at DESC);
      CREATE INDEX executions_crew ON executions (crew, created_at DESC);

      CREATE TABLE execution_events (
        execution_id uuid NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        type text NOT NULL,
        task_id text,
        attempt integer,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (execution_id, seq)
      );
    `,
  },
  {
    version: 2,
    name: "webhook outbox, attempts, endpoints, inbox",
    sql: `
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        position bigserial NOT NULL UNIQUE,
        execution_id uuid NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
        event_seq integer NOT NULL,
        kind text NOT NULL CHECK (kind IN ('step', 'task', 'crew')),
        url text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_owner text,
        lease_expires_at timestamptz,
        last_status_code integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
        WHERE status IN ('pending', 'delivering');
      -- An execution's step events go out to each endpoint in order: find its earlier unfinished
      -- ones fast.
      CREATE INDEX webhook_deliveries_step_queue ON webhook_deliveries (execution_id, url, position)
        WHERE status IN ('pending', 'delivering') AND kind = 'step';
      CREATE INDEX webhook_deliveries_execution ON webhook_deliveries (execution_id, position);
      CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (position DESC);

      CREATE TABLE webhook_attempts (
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        status_code integer,
        latency_ms integer NOT NULL,
        error text,
        PRIMARY KEY (delivery_id, attempt)
      );

      CREATE TABLE webhook_endpoints (
        url text PRIMARY KEY,
        disabled_at timestamptz NOT NULL DEFAULT now(),
        disabled_reason text NOT NULL
      );

      CREATE TABLE webhook_inbox (
        webhook_id text PRIMARY KEY,
        received_at timestamptz NOT NULL DEFAULT now(),
        payload jsonb NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: "embedded issue tracker",
    sql: `
      CREATE TABLE tracker_teams (
        id uuid PRIMARY KEY,
        key text NOT NULL UNIQUE CHECK (key ~ '^[A-Z][A-Z0-9]{0,9}$'),
        name text NOT NULL,
        next_number integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE tracker_states (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES tracker_teams(id) ON DELETE CASCADE,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('backlog', 'unstarted', 'started', 'completed', 'canceled')),
        position integer NOT NULL
      );
      CREATE TABLE tracker_users (id uuid PRIMARY KEY, name text NOT NULL, email text NOT NULL UNIQUE);
      CREATE TABLE tracker_labels (
        id uuid PRIMARY KEY,
        team_id uuid REFERENCES tracker_teams(id) ON DELETE CASCADE,
        name text NOT NULL
      );
      CREATE TABLE tracker_cycles (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES tracker_teams(id) ON DELETE CASCADE,
        number integer NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL
      );
      CREATE TABLE tracker_projects (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        description text,
        state text NOT NULL DEFAULT 'planned'
          CHECK (state IN ('backlog', 'planned', 'started', 'paused', 'completed', 'canceled')),
        lead_id uuid REFERENCES tracker_users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      );
      CREATE TABLE tracker_project_teams (
        project_id uuid NOT NULL REFERENCES tracker_projects(id) ON DELETE CASCADE,
        team_id uuid NOT NULL REFERENCES tracker_teams(id) ON DELETE CASCADE,
        PRIMARY KEY (project_id, team_id)
      );
      CREATE TABLE tracker_issues (
        id uuid PRIMARY KEY,
        team_id uuid NOT NULL REFERENCES tracker_teams(id),
        number integer NOT NULL,
        identifier text NOT NULL UNIQUE,
        title text NOT NULL,
        description text,
        state_id uuid NOT NULL REFERENCES tracker_states(id),
        priority integer NOT NULL DEFAULT 0,
        due_date date,
        cycle_id uuid REFERENCES tracker_cycles(id),
        assignee_id uuid REFERENCES tracker_users(id),
        project_id uuid REFERENCES tracker_projects(id),
        parent_id uuid REFERENCES tracker_issues(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        archived_at timestamptz,
        deleted_at timestamptz,
        UNIQUE (team_id, number)
      );
      CREATE INDEX tracker_issues_live ON tracker_issues (created_at DESC) WHERE deleted_at IS NULL;
      CREATE INDEX tracker_issues_parent ON tracker_issues (parent_id);
      CREATE TABLE tracker_issue_labels (
        issue_id uuid NOT NULL REFERENCES tracker_issues(id) ON DELETE CASCADE,
        label_id uuid NOT NULL REFERENCES tracker_labels(id) ON DELETE CASCADE,
        PRIMARY KEY (issue_id, label_id)
      );
      CREATE TABLE tracker_history (
        id bigserial PRIMARY KEY,
        issue_id uuid REFERENCES tracker_issues(id) ON DELETE CASCADE,
        project_id uuid REFERENCES tracker_projects(id) ON DELETE CASCADE,
        action text NOT NULL,
        changes jsonb NOT NULL DEFAULT '{}'::jsonb,
        execution_id uuid,
        actor text,
        at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX tracker_history_issue ON tracker_history (issue_id, id);
    `,
  },
  {
    version: 4,
    name: "integration tokens with read or write access",
    sql: `
      CREATE TABLE integration_tokens (
        id uuid PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        display_prefix text NOT NULL,
        label text,
        access text NOT NULL CHECK (access IN ('read', 'write')),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
    `,
  },
  {
    version: 5,
    name: "settings saved from the dashboard",
    sql: `
      CREATE TABLE settings (
        key text PRIMARY KEY,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 6,
    name: "keyset pagination of the runs list",
    sql: `
      -- The runs list pages by (created_at, id): each index ends in id so a page is one range scan.
      CREATE INDEX executions_recent ON executions (created_at DESC, id DESC);
      DROP INDEX executions_owner;
      CREATE INDEX executions_owner ON executions (owner_user_id, created_at DESC, id DESC);
      DROP INDEX executions_crew;
      CREATE INDEX executions_crew ON executions (crew, created_at DESC, id DESC);
    `,
  },
  {
    version: 7,
    name: "remote deployments",
    sql: `
      CREATE TABLE deployments (
        id uuid PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        base_url text NOT NULL,
        token_sealed text NOT NULL,
        webhook_secret_sealed text,
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- A remote run is an execution whose work happens elsewhere: the local engine never claims
      -- it; the poller and the webhook receivers feed its event log.
      ALTER TABLE executions ADD COLUMN deployment_id uuid REFERENCES deployments(id) ON DELETE CASCADE;
      ALTER TABLE executions ADD COLUMN remote_id text;
      ALTER TABLE executions ADD COLUMN remote jsonb;
      ALTER TABLE executions ADD COLUMN next_poll_at timestamptz;
      CREATE UNIQUE INDEX executions_remote_id ON executions (deployment_id, remote_id);
      DROP INDEX executions_claimable;
      CREATE INDEX executions_claimable ON executions (created_at)
        WHERE status IN ('queued', 'running') AND deployment_id IS NULL;
      CREATE INDEX executions_poll_due ON executions (next_poll_at)
        WHERE deployment_id IS NOT NULL AND next_poll_at IS NOT NULL;
      -- What an event from outside is (a remote's sequence number, a task's completion…), so the
      -- same event arriving by webhook and by polling is stored once.
      ALTER TABLE execution_events ADD COLUMN source_key text;
      CREATE UNIQUE INDEX execution_events_source ON execution_events (execution_id, source_key)
        WHERE source_key IS NOT NULL;
    `,
  },
  {
    version: 8,
    name: "OAuth authorization requests",
    sql: `
      -- One row per Connect click: the state (hashed) bound to who clicked, the PKCE verifier
      -- (sealed), used once, good for 10 minutes.
      CREATE TABLE oauth_states (
        state_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        verifier_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at timestamptz
      );
    `,
  },
  {
    version: 9,
    name: "session versions and disabled users",
    sql: `
      -- A session cookie carries the version current at sign-in and stops working once it moves:
      -- signing out, being disabled or removed, or a password reset bumps it.
      ALTER TABLE users ADD COLUMN session_version integer NOT NULL DEFAULT 0;
      -- Set while an administrator has disabled the person: no sign-in, no session, no token.
      ALTER TABLE users ADD COLUMN disabled_at timestamptz;
    `,
  },
  {
    version: 10,
    name: "who started and stopped a run, and its review wait",
    sql: `
      -- How a run was started: 'dashboard' (a session), 'api' (a token) or 'deployment' (a
      -- remote's run), with the person's e-mail or the token's label/prefix. Older runs: null.
      ALTER TABLE executions ADD COLUMN started_via text;
      ALTER TABLE executions ADD COLUMN started_by_name text;
      ALTER TABLE executions ADD COLUMN stopped_by text;
      ALTER TABLE executions ADD COLUMN stopped_at timestamptz;
      -- Seconds spent awaiting review, summed over every review (added when each one ends).
      ALTER TABLE executions ADD COLUMN review_wait_seconds double precision NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 11,
    name: "saved views",
    sql: `
      -- A person's named filters of the runs list: the list's URL query string, under a name
      -- unique per person (saving under the same name replaces it).
      CREATE TABLE saved_views (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        query text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, name)
      );
    `,
  },
  {
    version: 12,
    name: "streamed webhooks (CrewAI's kickoff `webhooks` object)",
    sql: `
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check
        CHECK (kind IN ('step', 'task', 'crew', 'stream'));
      -- The Authorization header the subscription asked for, sealed (never listed, never logged).
      ALTER TABLE webhook_deliveries ADD COLUMN auth_sealed text;
      -- Streamed events go out in order per endpoint, as step events do.
      CREATE INDEX webhook_deliveries_stream_queue ON webhook_deliveries (execution_id, url, position)
        WHERE status IN ('pending', 'delivering') AND kind = 'stream';
    `,
  },
  {
    version: 13,
    name: "execution artifacts",
    sql: `
      -- Task outputs kept as files (output_file), per run. In the database rather than on disk:
      -- every web process and worker sees them, they go when the run is deleted, and no name can
      -- reach outside the run.
      CREATE TABLE execution_artifacts (
        execution_id uuid NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
        name text NOT NULL,
        task_id text NOT NULL,
        content_type text NOT NULL,
        body text NOT NULL,
        bytes integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (execution_id, name)
      );
    `,
  },
  {
    version: 14,
    name: "review routing: teams, open reviews, review clock",
    sql: `
      -- Names a crew's review block may assign to, besides the four roles.
      ALTER TABLE users ADD COLUMN teams text[] NOT NULL DEFAULT '{}';
      -- Every review open in a run (several when parallel tasks wait at once), with its
      -- assignees, claim, approvals and deadline. pending_human_input stays the first of them.
      ALTER TABLE executions ADD COLUMN open_reviews jsonb NOT NULL DEFAULT '[]';
      -- The next reminder or deadline among them: what the workers' review clock looks for.
      ALTER TABLE executions ADD COLUMN review_due_at timestamptz;
      CREATE INDEX executions_review_due ON executions (review_due_at)
        WHERE review_due_at IS NOT NULL;
    `,
  },
  {
    version: 15,
    name: "notifications: e-mail and Slack in the outbox, preferences per person",
    sql: `
      -- Notifications go through the webhook outbox (same claims, retries and delivery log).
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check
        CHECK (kind IN ('step', 'task', 'crew', 'stream', 'email', 'slack'));
      -- Whom an e-mail is for (the log can be read per person); null for webhooks and Slack.
      ALTER TABLE webhook_deliveries ADD COLUMN recipient_user_id uuid
        REFERENCES users(id) ON DELETE SET NULL;
      CREATE INDEX webhook_deliveries_recipient ON webhook_deliveries (recipient_user_id)
        WHERE recipient_user_id IS NOT NULL;
      -- Which events reach a person on which channel; null = the defaults (lib/notify/preferences.ts).
      ALTER TABLE users ADD COLUMN notification_prefs jsonb;
    `,
  },
  {
    version: 16,
    name: "review ledger",
    sql: `
      -- Every review event of a run as a hash-chained entry (issue 15, item 6): who, when, what
      -- they saw (the output's hash), what they decided, its effect. Appended in the transaction
      -- that writes the event; never updated or deleted by the code, so an edit shows as a
      -- broken chain. Positions run 1..n per run without gaps.
      CREATE TABLE review_ledger (
        execution_id uuid NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
        position integer NOT NULL CHECK (position > 0),
        event_seq integer NOT NULL,
        at timestamptz NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        task_id text,
        attempt integer,
        output_sha256 text,
        decision jsonb NOT NULL DEFAULT '{}'::jsonb,
        effect text NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL,
        PRIMARY KEY (execution_id, position)
      );
    `,
  },
  {
    version: 17,
    name: "the inbox's open reviews, found without reading every run",
    sql: `
      -- GET /api/reviews (polled by every open inbox) reads the runs with a review open: the
      -- same condition as its query, so the planner can use this instead of scanning every run.
      CREATE INDEX executions_open_reviews ON executions (created_at DESC)
        WHERE status = 'pending_human_input' OR jsonb_array_length(open_reviews) > 0;
    `,
  },
  {
    version: 18,
    name: "retention: finished runs by age, ledgers outliving their runs",
    sql: `
      -- The audit ledger has its own, longer retention (lib/retention): a run's entries stay when
      -- the run is deleted, so they no longer cascade from it.
      ALTER TABLE review_ledger DROP CONSTRAINT IF EXISTS review_ledger_execution_id_fkey;
      -- The retention sweeper takes the oldest finished runs first, a batch at a time.
      CREATE INDEX executions_finished ON executions ((COALESCE(finished_at, updated_at)))
        WHERE status IN ('completed', 'error', 'cancelled');
      -- Ledgers whose run is gone, by their first entry's time (a whole ledger goes at once).
      CREATE INDEX review_ledger_first ON review_ledger (at) WHERE position = 1;
    `,
  },
  {
    version: 19,
    name: "executions: a version for the worker's lock-free writes",
    sql: `
      -- Bumped by every change of an execution. The worker holding a run's lease writes its changes
      -- in one statement guarded by the version it last wrote (lib/runs/execution-writer.ts),
      -- instead of locking and re-reading the row: anyone else's change in between makes the
      -- guard fail, and the worker then applies its changes again on the row as it now is.
      ALTER TABLE executions ADD COLUMN version integer NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 20,
    name: "webhook outbox: due deliveries in claim order",
    sql: `
      -- The delivery worker claims the oldest due deliveries, by (next_attempt_at, position): read
      -- in that order it stops after a batch, instead of sorting the whole backlog every claim.
      CREATE INDEX webhook_deliveries_claim ON webhook_deliveries (next_attempt_at, position)
        WHERE status IN ('pending', 'delivering');
      DROP INDEX webhook_deliveries_due;
    `,
  },
  {
    version: 21,
    name: "crew definitions stored once, named by each run",
    sql: `
      -- A local run names its crew's definition by key (the SHA-256 of its JSON) instead of keeping
      -- a 2–3 kB copy: a kickoff writes a small row, and a million runs of a crew hold one copy.
      -- Definitions are never changed or deleted (a changed crew is a new key), so processes may
      -- keep what they have stored or read (lib/runs/crew-definitions.ts). Remote runs, whose
      -- snapshot lists each run's inputs, and runs from before this keep their own copy.
      CREATE TABLE crew_definitions (
        key text PRIMARY KEY,
        definition jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      ALTER TABLE executions ALTER COLUMN crew_snapshot DROP NOT NULL;
      -- No foreign key: its check locks the definition's row (FOR KEY SHARE) in every kickoff, so
      -- concurrent kickoffs of one crew would queue on that row; definitions are never deleted.
      ALTER TABLE executions ADD COLUMN crew_def text;
      ALTER TABLE executions ADD CONSTRAINT executions_one_crew
        CHECK ((crew_snapshot IS NULL) <> (crew_def IS NULL)) NOT VALID;
    `,
  },
  {
    version: 22,
    name: "flows: a run's nested runs and where its flow stands",
    sql: `
      -- A CrewAI Flow runs as one execution; each crew or agent one of its methods calls is a run
      -- of its own (parent_id), with its own trace and reviews. The flow's state, method outputs
      -- and queue are kept in \`flow\` (lib/run-model/flow-progress.ts), written with each step.
      ALTER TABLE executions ADD COLUMN parent_id uuid REFERENCES executions(id) ON DELETE CASCADE;
      ALTER TABLE executions ADD COLUMN flow jsonb;
      -- The worker skips a flow while one of its nested runs is active (lib/engine/worker.ts).
      CREATE INDEX executions_children ON executions (parent_id) WHERE parent_id IS NOT NULL;
    `,
  },
  {
    version: 23,
    name: "re-runs: the run a run was started again from",
    sql: `
      -- A run started again from another (its inputs edited, another model): origin_id names it,
      -- origin_kind says how. Deleting the origin keeps its re-runs, unlinked.
      ALTER TABLE executions ADD COLUMN origin_id uuid REFERENCES executions(id) ON DELETE SET NULL;
      ALTER TABLE executions ADD COLUMN origin_kind text CHECK (origin_kind IN ('rerun', 'fork'));
      CREATE INDEX executions_origin ON executions (origin_id) WHERE origin_id IS NOT NULL;
    `,
  },
  {
    version: 24,
    name: "concurrency keys, schedules and triggers",
    sql: `
      -- A run's concurrency key (scoped to its crew): while one run with the key is active, a
      -- second is refused, waits its turn, or stops the first (lib/runs/concurrency.ts).
      ALTER TABLE executions ADD COLUMN concurrency_key text;
      CREATE INDEX executions_concurrency ON executions (crew, concurrency_key, created_at)
        WHERE concurrency_key IS NOT NULL AND status IN ('queued', 'running', 'pending_human_input');
      -- A crew run on a cron expression in a time zone; next_due_at is the claim: the worker that
      -- locks the row and moves it on fires the due time, in the transaction that starts the run.
      CREATE TABLE schedules (
        id uuid PRIMARY KEY,
        crew text NOT NULL,
        name text NOT NULL,
        cron text NOT NULL,
        timezone text NOT NULL,
        inputs jsonb NOT NULL DEFAULT '{}',
        overlap text NOT NULL CHECK (overlap IN ('skip', 'queue', 'allow')),
        catch_up integer NOT NULL CHECK (catch_up BETWEEN 1 AND 100),
        paused boolean NOT NULL DEFAULT false,
        next_due_at timestamptz,
        owner_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX schedules_due ON schedules (next_due_at) WHERE NOT paused;
      CREATE INDEX schedules_crew ON schedules (crew, created_at);
      -- One row per due time, ever: the primary key makes a second firing of it impossible.
      CREATE TABLE schedule_fires (
        schedule_id uuid NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
        due_at timestamptz NOT NULL,
        fired_at timestamptz NOT NULL DEFAULT now(),
        outcome text NOT NULL CHECK (outcome IN ('started', 'queued', 'skipped', 'missed', 'failed')),
        execution_id uuid REFERENCES executions(id) ON DELETE SET NULL,
        detail text,
        PRIMARY KEY (schedule_id, due_at)
      );
      -- An inbound endpoint that starts a run from a signed webhook; the secret is encrypted.
      CREATE TABLE triggers (
        id uuid PRIMARY KEY,
        crew text NOT NULL,
        name text NOT NULL,
        signature text NOT NULL CHECK (signature IN ('standard', 'github', 'shared')),
        secret_enc text NOT NULL,
        mapping jsonb NOT NULL DEFAULT '{}',
        inputs jsonb NOT NULL DEFAULT '{}',
        concurrency jsonb,
        paused boolean NOT NULL DEFAULT false,
        owner_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX triggers_crew ON triggers (crew, created_at);
      -- Every delivery received, with the run it started or why not; the sender's delivery id is
      -- remembered so a redelivery starts nothing twice.
      CREATE TABLE trigger_events (
        id uuid PRIMARY KEY,
        trigger_id uuid NOT NULL REFERENCES triggers(id) ON DELETE CASCADE,
        delivery_id text,
        received_at timestamptz NOT NULL DEFAULT now(),
        outcome text NOT NULL CHECK (outcome IN ('started', 'duplicate', 'unauthorized', 'invalid', 'limited', 'refused')),
        status_code integer NOT NULL,
        detail text,
        errors jsonb,
        execution_id uuid REFERENCES executions(id) ON DELETE SET NULL,
        payload_bytes integer NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX trigger_events_delivery ON trigger_events (trigger_id, delivery_id)
        WHERE delivery_id IS NOT NULL AND outcome = 'started';
      CREATE INDEX trigger_events_recent ON trigger_events (trigger_id, received_at DESC);
      -- Which schedule or trigger started a run (its started_via says which kind).
      ALTER TABLE executions ADD COLUMN schedule_id uuid REFERENCES schedules(id) ON DELETE SET NULL;
      ALTER TABLE executions ADD COLUMN trigger_id uuid REFERENCES triggers(id) ON DELETE SET NULL;
    `,
  },
  {
    version: 25,
    name: "datasets, variants, experiments and judge calibrations",
    sql: `
      -- Rows of inputs for a crew, each with the outputs expected of its tasks (by task name).
      CREATE TABLE datasets (
        id uuid PRIMARY KEY,
        crew text NOT NULL,
        name text NOT NULL,
        description text,
        owner_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (crew, name)
      );
      CREATE TABLE dataset_rows (
        dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
        position integer NOT NULL,
        inputs jsonb NOT NULL,
        expected jsonb NOT NULL DEFAULT '{}',
        source_execution_id uuid REFERENCES executions(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (dataset_id, position)
      );
      -- A change to a crew kept as data (an overlay), never as an edit of its files.
      CREATE TABLE variants (
        id uuid PRIMARY KEY,
        crew text NOT NULL,
        name text NOT NULL,
        description text,
        changes jsonb NOT NULL,
        definition_key text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (crew, name)
      );
      -- Dataset x variants x repeats. Each variant's definition is pinned as text (not jsonb, which
      -- reorders keys) so its runs name the very definition key it was created with.
      CREATE TABLE experiments (
        id uuid PRIMARY KEY,
        crew text NOT NULL,
        name text NOT NULL,
        dataset_id uuid REFERENCES datasets(id) ON DELETE SET NULL,
        spec jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'completed', 'stopped', 'budget_reached')),
        stop_reason text,
        -- Which worker advances it (launches, scores); another takes over once this lapses.
        lease_owner text,
        lease_expires_at timestamptz,
        owner_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        token_id uuid,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      CREATE INDEX experiments_crew ON experiments (crew, created_at DESC);
      CREATE INDEX experiments_running ON experiments (created_at) WHERE status = 'running';
      CREATE TABLE experiment_variants (
        experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        position integer NOT NULL,
        name text NOT NULL,
        variant_id uuid REFERENCES variants(id) ON DELETE SET NULL,
        changes jsonb NOT NULL,
        definition_key text NOT NULL,
        definition text NOT NULL,
        PRIMARY KEY (experiment_id, name)
      );
      -- One run of one row by one variant. A cell is launched once (pending -> running in the
      -- transaction that creates its run) and scored once (running -> scored).
      CREATE TABLE experiment_cells (
        experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        n integer NOT NULL,
        variant text NOT NULL,
        row_position integer NOT NULL,
        repeat integer NOT NULL,
        inputs jsonb NOT NULL,
        expected jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL CHECK (status IN ('pending', 'running', 'scored', 'skipped')),
        execution_id uuid REFERENCES executions(id) ON DELETE SET NULL,
        scores jsonb,
        usage jsonb,
        scored_at timestamptz,
        PRIMARY KEY (experiment_id, n)
      );
      CREATE INDEX experiment_cells_open ON experiment_cells (experiment_id, status)
        WHERE status IN ('pending', 'running');
      -- A pairwise judge's verdict on two variants' outputs for one row and repeat.
      CREATE TABLE experiment_pairs (
        experiment_id uuid NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
        metric text NOT NULL,
        row_position integer NOT NULL,
        repeat integer NOT NULL,
        verdict jsonb NOT NULL,
        PRIMARY KEY (experiment_id, metric, row_position, repeat)
      );
      -- A judge run on past reviewed outputs, to measure its agreement with the reviewers.
      CREATE TABLE judge_calibrations (
        id uuid PRIMARY KEY,
        crew text NOT NULL,
        judge_key text NOT NULL,
        judge jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
        items jsonb NOT NULL DEFAULT '[]',
        judged jsonb NOT NULL DEFAULT '[]',
        error text,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      CREATE INDEX judge_calibrations_crew ON judge_calibrations (crew, judge_key, created_at DESC);
    `,
  },
  {
    version: 26,
    name: "A2A push notifications in the webhook outbox",
    sql: `
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check
        CHECK (kind IN ('step', 'task', 'crew', 'stream', 'email', 'slack', 'a2a'));
      -- A task's updates reach each push endpoint in order, as streamed events do.
      CREATE INDEX webhook_deliveries_a2a_queue ON webhook_deliveries (execution_id, url, position)
        WHERE status IN ('pending', 'delivering') AND kind = 'a2a';
    `,
  },
  {
    version: 27,
    name: "the runs each agent protocol started, newest first",
    sql: `
      -- MCP's tasks/list and A2A's ListTasks page through these: without it, through every run.
      CREATE INDEX executions_protocol ON executions ((meta->>'protocol'), created_at DESC, id DESC)
        WHERE meta ? 'protocol';
    `,
  },
  {
    version: 28,
    name: "budgets several runs draw on (an experiment's), checked before each model call",
    sql: `
      CREATE TABLE spend_budgets (
        id uuid PRIMARY KEY,
        max_tokens double precision,
        max_cost_usd double precision,
        tokens double precision NOT NULL DEFAULT 0,
        cost_usd double precision NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE spend_budget_runs (
        execution_id uuid PRIMARY KEY REFERENCES executions(id) ON DELETE CASCADE,
        budget_id uuid NOT NULL REFERENCES spend_budgets(id) ON DELETE CASCADE
      );
      CREATE INDEX spend_budget_runs_budget ON spend_budget_runs (budget_id);
    `,
  },
  {
    version: 29,
    name: "a person's token's concurrency key reaches only that person's runs",
    sql: `
      -- Set when a person's token started the run (or made the trigger that did): its key then
      -- stops, refuses and waits for that person's runs only (lib/runs/concurrency.ts); null,
      -- every run of the crew with the key. No foreign key: a person removed leaves their runs
      -- with no owner, which such a key no longer reaches anyway.
      ALTER TABLE executions ADD COLUMN concurrency_owner uuid;
      ALTER TABLE triggers ADD COLUMN concurrency_owner uuid;
    `,
  },
  {
    version: 30,
    name: "GitHub deliveries' bodies, remembered to refuse replays",
    sql: `
      -- GitHub signs only the body: its SHA-256 with the signature, and the delivery id it first
      -- came with. The key makes the first of two racing copies win (lib/triggers/replays.ts).
      CREATE TABLE trigger_replays (
        trigger_id uuid NOT NULL REFERENCES triggers(id) ON DELETE CASCADE,
        digest text NOT NULL,
        delivery_id text NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (trigger_id, digest)
      );
      CREATE INDEX trigger_replays_age ON trigger_replays (trigger_id, received_at);
    `,
  },
  {
    version: 31,
    name: "what a flow's each items gave, beside the flow's row",
    sql: `
      -- A flow's \`each\` that waits on a nested run per item writes its progress per item: the
      -- items it finished are kept here, not in \`flow\`, so that write does not grow with them
      -- (lib/flows/each-items.ts). Rows go once the method's output is written with the flow.
      CREATE TABLE flow_each_items (
        execution_id uuid NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
        run integer NOT NULL,
        item integer NOT NULL,
        result jsonb NOT NULL,
        children jsonb NOT NULL,
        PRIMARY KEY (execution_id, run, item)
      );
    `,
  },
];

// Several processes may start at once against one PostgreSQL: the advisory lock lets one migrate
// while the others wait, then find nothing left to do.
export async function migrate(db: Db) {
  await db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock(7283190)");
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await q.query(
      "SELECT version FROM schema_migrations",
      [],
      z.object({ version: num }),
    );
    const applied = new Set(rows.map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      for (const statement of splitStatements(m.sql)) await q.query(statement);
      await q.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        m.version,
        m.name,
      ]);
    }
  });
}

// Parameterised query APIs take one statement at a time; our migrations hold no `;` in strings.
function splitStatements(sql: string) {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter(Boolean);
}
