// The programs people point at a CrewAI deployment, reduced to what they put on the wire and how
// they read the answers — written from their source, so a test can replay them against Crewdeck:
// - Semantic Kernel .NET: Microsoft.SemanticKernel.Plugins.AI.CrewAI (CrewAIEnterpriseClient,
//   CrewAIStateEnumConverter, CrewAIEnterprise.WaitForCrewCompletionAsync);
// - Semantic Kernel Python: semantic_kernel.core_plugins.crew_ai (CrewAIEnterpriseClient,
//   CrewAIStatusResponse, CrewAIEnterprise.wait_for_crew_completion);
// - crewai-tools: InvokeCrewAIAutomationTool (_kickoff_crew, _get_crew_status, _run).
// Each `readStatus` throws where the client throws, and `finished` is the client's own test for
// "stop polling".

type ClientStatus = { state: string; result: string | null; finished: boolean };

export type CrewAIClient = {
  name: string;
  kickoff(inputs: Record<string, unknown>): Promise<string>;
  status(kickoffId: string): Promise<ClientStatus>;
  /** What the client's "kick off and wait" returns, or the error it raises. */
  outcome(status: ClientStatus): { value: string } | { error: string };
};

type Endpoint = { url: string; token: string };

async function send(method: string, url: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  return { status: res.status, text };
}

// Raises like `response.raise_for_status()` / `SendWithSuccessCheckAsync`.
function ensureSuccess(r: { status: number; text: string }, client: string) {
  if (r.status < 200 || r.status >= 300)
    throw new Error(`${client}: HTTP ${r.status} is not a success: ${r.text}`);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** System.Text.Json into CrewAIStatusResponse: `string? Result`, `Dictionary<string,object>? LastStep`. */
function semanticKernelDotnet({ url, token }: Endpoint): CrewAIClient {
  const headers = { Authorization: `Bearer ${token}` };
  const stateOf = (v: unknown) => {
    // CrewAIStateEnumConverter: anything else is "Failed to parse Crew AI kickoff state."
    const known = ["PENDING", "STARTED", "RUNNING", "SUCCESS", "FAILED"];
    const upper = typeof v === "string" ? v.toUpperCase() : undefined;
    if (!upper || !known.includes(upper))
      throw new Error(`Failed to parse Crew AI kickoff state: ${JSON.stringify(v)}`);
    return upper;
  };
  return {
    name: "Semantic Kernel .NET",
    async kickoff(inputs) {
      // An anonymous object serialized as is: callbacks not set go out as null.
      const body = JSON.stringify({
        inputs,
        taskWebhookUrl: null,
        stepWebhookUrl: null,
        crewWebhookUrl: null,
      });
      const r = await send(
        "POST",
        `${url}/kickoff`,
        { ...headers, "Content-Type": "application/json; charset=utf-8" },
        body,
      );
      ensureSuccess(r, this.name);
      const id = JSON.parse(r.text).kickoff_id;
      if (typeof id !== "string") throw new Error(`no kickoff_id in ${r.text}`);
      return id;
    },
    async status(kickoffId) {
      const r = await send("GET", `${url}/status/${kickoffId}`, headers);
      ensureSuccess(r, this.name);
      const json = JSON.parse(r.text);
      const state = stateOf(json.state);
      if (json.result !== undefined && json.result !== null && typeof json.result !== "string")
        throw new Error(`The JSON value could not be converted to System.String: result`);
      if (json.last_step !== undefined && json.last_step !== null && !isObject(json.last_step))
        throw new Error("The JSON value could not be converted to Dictionary: last_step");
      return {
        state,
        result: json.result ?? null,
        finished: state === "FAILED" || state === "SUCCESS",
      };
    },
    outcome(s) {
      if (s.state === "FAILED") return { error: `CrewAI Crew failed with error: ${s.result}` };
      if (s.state === "SUCCESS") return { value: s.result ?? "" };
      return { error: "Failed to parse unexpected response from CrewAI status response." };
    },
  };
}

/** pydantic into CrewAIStatusResponse: `state: CrewAIEnterpriseKickoffState`, `result: str | None`. */
function semanticKernelPython({ url, token }: Endpoint): CrewAIClient {
  const headers = {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    user_agent: "semantic-kernel-python/1.0",
  };
  const STATES = ["PENDING", "STARTED", "RUNNING", "SUCCESS", "FAILED", "FAILURE", "NOT FOUND"];
  return {
    name: "Semantic Kernel Python",
    async kickoff(inputs) {
      const body = JSON.stringify({
        inputs,
        taskWebhookUrl: null,
        stepWebhookUrl: null,
        crewWebhookUrl: null,
      });
      const r = await send("POST", `${url}/kickoff`, headers, body);
      ensureSuccess(r, this.name);
      const id = JSON.parse(r.text).kickoff_id;
      if (typeof id !== "string") throw new Error(`kickoff_id: Field required (${r.text})`);
      return id;
    },
    async status(kickoffId) {
      if (!/^[A-Za-z0-9_-]+$/.test(kickoffId))
        throw new Error(
          "Task ID must contain only ASCII letters, digits, underscores, or hyphens.",
        );
      const r = await send("GET", `${url}/status/${kickoffId}`, headers);
      ensureSuccess(r, this.name);
      const json = JSON.parse(r.text);
      if (!STATES.includes(json.state))
        throw new Error(`state: Input should be one of ${STATES.join(", ")} (${json.state})`);
      if (json.result != null && typeof json.result !== "string")
        throw new Error("result: Input should be a valid string");
      if (json.last_step != null && !isObject(json.last_step))
        throw new Error("last_step: Input should be a valid dictionary");
      return {
        state: json.state,
        result: json.result ?? null,
        finished: ["FAILED", "FAILURE", "SUCCESS", "NOT FOUND"].includes(json.state),
      };
    },
    outcome(s) {
      // Its failure check compares the enum's value with "Failed"/"Failure", which never match
      // "FAILED": a failed crew's `result` is returned as if it were the output. Replayed as is.
      const result = s.result ?? "";
      if (s.state === "Failed" || s.state === "Failure")
        return { error: `CrewAI Crew failed with error: ${result}` };
      return { value: result };
    },
  };
}

/** requests' `response.json()` read as a dict; `state` compared in lower case. */
function crewaiTools({ url, token }: Endpoint): CrewAIClient {
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  return {
    name: "crewai-tools InvokeCrewAIAutomationTool",
    async kickoff(inputs) {
      const r = await send("POST", `${url}/kickoff`, headers, JSON.stringify({ inputs }));
      const id = JSON.parse(r.text).kickoff_id;
      if (id == null) throw new Error(`Error: Failed to kickoff crew. Response: ${r.text}`);
      return String(id);
    },
    async status(kickoffId) {
      // A GET that still says Content-Type: application/json, with no body.
      const r = await send("GET", `${url}/status/${kickoffId}`, headers);
      const json = JSON.parse(r.text);
      const state = String(json.state ?? "").toLowerCase();
      return {
        state,
        result: json.result == null ? null : String(json.result),
        finished: state === "success" || state === "failed",
      };
    },
    outcome(s) {
      if (s.state === "success") return { value: s.result ?? "No result returned" };
      return { error: `Error: Crew task failed. Response: ${JSON.stringify(s)}` };
    },
  };
}

export const CREWAI_CLIENTS = [semanticKernelDotnet, semanticKernelPython, crewaiTools];
