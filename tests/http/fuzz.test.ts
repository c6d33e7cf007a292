import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { TEST_CREW_TOKEN } from "../support/harness";

// Property-based fuzzing of the crew API: random methods, paths, headers and bodies. Whatever
// comes in, the answer is never a 5xx, and every error is a problem-details body.
// FUZZ_CASES sets the count (npm test runs a short form; `npm run test:chaos` the full 10,000).
const baseUrl = inject("baseUrl");
const CASES = Number(process.env.FUZZ_CASES ?? 300);
const ID = "00000000-0000-4000-8000-000000000000";

const segment = fc.oneof(
  fc.constantFrom(
    "",
    "inputs",
    "kickoff",
    "resume",
    "status",
    "stop",
    "executions",
    "events",
    ID,
    "..",
    "%00",
    "%2e%2e",
    "brief",
    "nope",
  ),
  fc.string({ maxLength: 12 }),
);
const path = fc.oneof(
  fc.constantFrom(
    "/api/crews/brief",
    "/api/crews/brief/",
    "/api/crews/brief/inputs",
    "/api/crews/brief/kickoff",
    "/api/crews/brief/resume",
    `/api/crews/brief/status/${ID}`,
    `/api/crews/brief/stop/${ID}`,
    `/api/crews/brief/executions/${ID}/events`,
  ),
  fc
    .array(segment, { minLength: 1, maxLength: 4 })
    .map((parts) => `/api/crews/brief/${parts.map((p) => encodeURIComponent(p)).join("/")}`),
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
    .map(([a, b]) => `/api/crews/${encodeURIComponent(a)}/${encodeURIComponent(b)}`),
);
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .record({
      inputs: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
      meta: fc.option(fc.jsonValue({ maxDepth: 2 })),
      taskWebhookUrl: fc.option(fc.oneof(fc.webUrl(), fc.string())),
    })
    .map((v) => JSON.stringify(v)),
  fc
    .record({
      execution_id: fc.oneof(fc.uuid(), fc.string()),
      task_id: fc.jsonValue(),
      human_feedback: fc.jsonValue(),
      is_approve: fc.jsonValue(),
    })
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
);
const auth = fc.oneof(
  fc.constant(`Bearer ${TEST_CREW_TOKEN}`),
  fc.constant(`Bearer ${TEST_CREW_TOKEN}`),
  fc.string({ maxLength: 40 }),
  fc.constant(undefined),
);
const contentType = fc.option(
  fc.constantFrom(
    "application/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=utf-8",
  ),
);

describe("fuzzing the crew API", () => {
  it(`${CASES} random requests: no 5xx, errors are problem details`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
        path,
        auth,
        contentType,
        jsonish,
        async (method, p, authorization, type, body) => {
          const headers: Record<string, string> = {};
          if (authorization !== undefined) headers.authorization = authorization;
          if (type) headers["content-type"] = type;
          const res = await fetch(baseUrl + p, {
            method,
            headers,
            body: method === "GET" ? undefined : body,
            redirect: "manual",
          });
          const text = await res.text();
          expect(res.status, `${method} ${p} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(
            500,
          );
          if (res.status >= 400 && res.status !== 405) {
            expect(res.headers.get("content-type"), `${method} ${p} → ${res.status}`).toContain(
              "application/problem+json",
            );
            const problem = JSON.parse(text);
            expect(problem.status).toBe(res.status);
          }
        },
      ),
      { numRuns: CASES },
    );
  }, 600_000);
});
