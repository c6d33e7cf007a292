import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A loopback stand-in for a CrewAI-style deployment (CrewAI AMP's kickoff API): bearer auth,
// `{error, message}` error bodies, and a /status that follows a script over wall-clock time.
// It stores webhook URLs given at kickoff but never calls them: it models a deployment that
// cannot reach us, so the dashboard must poll.

type Body = Record<string, unknown>;
/**
 * From `afterMs` after kickoff, /status answers `body` (until a later step applies). A `held`
 * step waits for release() as well, so a test can see the step before it whatever the machine's
 * speed.
 */
type ScriptStep = { afterMs: number; body: Body; held?: boolean };
export type Script = ScriptStep[];

export type FakeCrewAI = {
  url: string;
  close: () => Promise<void>;
  kickoffs: { id: string; inputs: Body; body: Body }[];
  resumes: Body[];
  /** Every request received, authorised or not. */
  readonly requests: number;
  /** The script for later kickoffs; executions already started keep theirs. */
  setScript: (script: Script) => void;
  /** Lets the executions started so far go on to their held steps. */
  release: () => void;
};

/** The script with its last step held until release(). */
export function holdLastStep(script: Script): Script {
  return script.map((step, i) => (i === script.length - 1 ? { ...step, held: true } : step));
}

/** Queued, started, one task done, then success with both tasks' outputs. `{topic}` is the input. */
export function successScript(ms = 1500): Script {
  const research = { name: "research", agent: "Researcher", raw: "Notes on {topic}" };
  const write = { name: "write", agent: "Writer", raw: "Final answer about {topic}" };
  return [
    { afterMs: 0, body: { state: "PENDING" } },
    {
      afterMs: Math.round(ms / 3),
      body: {
        state: "STARTED",
        status: "running",
        current_task: "research",
        progress: { completed_tasks: 0, total_tasks: 2 },
        last_step: { thought: "Gathering sources about {topic}", tool: "web_search" },
      },
    },
    {
      afterMs: Math.round((2 * ms) / 3),
      body: {
        state: "RUNNING",
        status: "running",
        current_task: "write",
        progress: { completed_tasks: 1, total_tasks: 2 },
        last_executed_task: research,
        last_step: { thought: "Drafting the answer about {topic}" },
      },
    },
    {
      afterMs: ms,
      body: {
        state: "SUCCESS",
        status: "completed",
        result: { output: "Final answer about {topic}", tasks: [research, write] },
        last_executed_task: write,
      },
    },
  ];
}

/** Queued, started, then a crash. */
export function failureScript(ms = 1500): Script {
  return [
    { afterMs: 0, body: { state: "PENDING" } },
    {
      afterMs: Math.round(ms / 2),
      body: {
        state: "STARTED",
        status: "running",
        current_task: "research",
        last_step: { thought: "Gathering sources about {topic}", tool: "web_search" },
      },
    },
    {
      afterMs: ms,
      body: { state: "FAILURE", status: "error", error: "Agent crashed: boom" },
    },
  ];
}

type Execution = { inputs: Body; startedAt: number; script: Script; released: boolean };
const RESUME_FIELDS = {
  execution_id: "string",
  task_id: "string",
  human_feedback: "string",
  is_approve: "boolean",
} as const;

export async function startFakeCrewAI({
  token,
  inputs = ["topic"],
  script = successScript(),
}: {
  token: string;
  inputs?: string[];
  script?: Script;
}): Promise<FakeCrewAI> {
  let current = script;
  let requests = 0;
  const executions = new Map<string, Execution>();
  const kickoffs: FakeCrewAI["kickoffs"] = [];
  const resumes: Body[] = [];

  const server = http.createServer(async (req, res) => {
    requests++;
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const send = (status: number, body: Body) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    // CrewAI's error shape, not problem details.
    const fail = (status: number, error: string, message: string) =>
      send(status, { error, message });

    if (req.headers.authorization !== `Bearer ${token}`) {
      fail(401, "Unauthorized", "Invalid bearer token");
      return;
    }
    const path = (req.url ?? "/").split("?")[0]?.replace(/\/+$/, "") || "/";
    const route = `${req.method} ${path}`;
    const statusId = /^GET \/status\/([^/]+)$/.exec(route)?.[1];

    if (route === "GET /") {
      res.writeHead(200, { "content-type": "text/plain" }).end("Healthy");
    } else if (route === "GET /inputs") {
      send(200, { inputs });
    } else if (route === "POST /kickoff") {
      const body = parseObject(raw);
      if (!body) return fail(400, "Bad Request", "Body must be a JSON object");
      const given = isObject(body.inputs) ? body.inputs : {};
      const missing = inputs.filter((name) => given[name] == null || given[name] === "");
      if (missing.length) {
        return fail(422, "Validation error", `Missing required inputs: ${missing.join(", ")}`);
      }
      const id = crypto.randomUUID();
      executions.set(id, {
        inputs: given,
        startedAt: Date.now(),
        script: current,
        released: false,
      });
      kickoffs.push({ id, inputs: given, body });
      send(200, { kickoff_id: id });
    } else if (statusId !== undefined) {
      const execution = executions.get(decodeURIComponent(statusId));
      if (!execution) return fail(404, "Not Found", "Execution not found");
      send(200, scriptedBody(execution));
    } else if (route === "POST /resume") {
      const body = parseObject(raw);
      if (!body) return fail(400, "Bad Request", "Body must be a JSON object");
      const wrong = Object.entries(RESUME_FIELDS)
        .filter(([field, type]) => typeof body[field] !== type)
        .map(([field]) => field);
      if (wrong.length) {
        return fail(422, "Validation error", `Missing or invalid fields: ${wrong.join(", ")}`);
      }
      if (!executions.has(body.execution_id as string)) {
        return fail(404, "Not Found", "Execution not found");
      }
      resumes.push(body);
      send(200, { status: "resumed", message: "Execution resumed" });
    } else {
      fail(404, "Not Found", `No route for ${route}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    kickoffs,
    resumes,
    get requests() {
      return requests;
    },
    setScript: (next) => {
      current = next;
    },
    release: () => {
      for (const execution of executions.values()) execution.released = true;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The latest step that has begun, with `{input}` placeholders filled in from the kickoff.
function scriptedBody({ inputs, startedAt, script, released }: Execution): Body {
  const elapsed = Date.now() - startedAt;
  const begun = (s: ScriptStep) => s.afterMs <= elapsed && (released || !s.held);
  const step = script.filter(begun).at(-1) ?? script[0];
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      return value.replace(/\{([A-Za-z_][\w-]*)\}/g, (whole, name: string) =>
        Object.hasOwn(inputs, name) ? String(inputs[name]) : whole,
      );
    }
    if (Array.isArray(value)) return value.map(fill);
    if (isObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(step?.body ?? {}) as Body;
}

function isObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(raw: string): Body | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}
