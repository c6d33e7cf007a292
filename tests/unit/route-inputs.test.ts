import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type BodySpec, endpoint, type Reply } from "@/lib/api/endpoints/endpoint";
import { noCaller, route } from "@/lib/api/route";
import { json } from "@/lib/http/respond";

// The route builder's path parameters, bodies and (in the HTTP tests) answers, on a route made
// with it from an endpoint: what a handler never has to check by hand. Its endpoints are public
// (a caller that proves itself, as a webhook does), so their POSTs declare "secret".
const thing = <B extends BodySpec | undefined = undefined>(
  extra: { body?: B; params?: Record<string, z.ZodType>; responses?: Record<number, Reply> } = {},
) =>
  endpoint({
    method: "POST",
    path: "/api/things/{id}",
    operationId: "thing",
    tag: "Service",
    summary: "A thing",
    access: { public: "a test" },
    params: extra.params ?? { id: z.string() },
    body: extra.body,
    responses: extra.responses ?? { 200: { description: "OK", schema: z.unknown() } },
  });
const url = "http://localhost/api/things/x";
const post = (body: string | undefined, params: Record<string, string> = { id: "x" }) =>
  [
    new Request(url, {
      method: "POST",
      body,
      headers: body === undefined ? {} : { "content-type": "application/json" },
    }),
    { params: Promise.resolve(params) },
  ] as const;
const problem = async (res: Response) => ({ status: res.status, ...(await res.json()) });

describe("the declared response schema", () => {
  const Answer = z.object({ ok: z.literal(true), n: z.number().int() });
  const answering = (body: unknown, status = 200) =>
    route(
      thing({
        responses: {
          200: { description: "OK", schema: Answer },
          201: { description: "Made", schema: Answer },
        },
      }),
      async () => json(body, { status }),
      noCaller,
    );

  afterEach(() => vi.unstubAllEnvs());

  it("with CREWDECK_CHECK_RESPONSES=1, a 2xx body that does not match is a 500 naming the route", async () => {
    vi.stubEnv("CREWDECK_CHECK_RESPONSES", "1");
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await answering({ ok: true, n: "3" })(...post(undefined));
    const body = await problem(res);
    expect(body).toMatchObject({ status: 500, type: "urn:crewdeck:problem:response-mismatch" });
    expect(body.detail).toContain("POST /api/things/x");
    expect(body.errors).toEqual([{ path: "n", message: expect.any(String) }]);
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });

  it("passes a matching body through unchanged, status and headers included", async () => {
    vi.stubEnv("CREWDECK_CHECK_RESPONSES", "1");
    const res = await answering({ ok: true, n: 3 }, 201)(...post(undefined));
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ ok: true, n: 3 });
  });

  it("leaves errors, non-JSON answers and unchecked servers alone", async () => {
    vi.stubEnv("CREWDECK_CHECK_RESPONSES", "1");
    expect((await answering({ bad: 1 }, 409)(...post(undefined))).status).toBe(409);
    const text = route(
      thing({ responses: { 200: { description: "OK", schema: Answer } } }),
      async () => new Response("hi"),
      noCaller,
    );
    expect(await (await text(...post(undefined))).text()).toBe("hi");
    vi.stubEnv("CREWDECK_CHECK_RESPONSES", "");
    expect((await answering({ ok: false })(...post(undefined))).status).toBe(200);
  });
});

describe("path parameters", () => {
  const byId = route(
    thing({ params: { id: z.uuid({ error: (i) => `No thing '${i.input}'.` }) } }),
    async ({ params }) => json({ id: params.id }),
    noCaller,
  );

  it("a value the schema refuses names nothing: 404 with its message", async () => {
    const res = await byId(...post(undefined, { id: "nope" }));
    expect(await problem(res)).toMatchObject({ status: 404, detail: "No thing 'nope'." });
  });

  it("a good one reaches the handler", async () => {
    const id = "7d8f7f3e-5d1c-4a3b-9b1e-0c2d3e4f5a6b";
    expect(await (await byId(...post(undefined, { id }))).json()).toEqual({ id });
  });
});

describe("bodies", () => {
  const Body = z.object({ name: z.string().min(1), role: z.enum(["a", "b"]).optional() });
  const make = (extra: { invalid?: 422; optional?: true } = {}) =>
    route(
      thing({ body: { schema: Body, ...extra } }),
      async ({ body }) => json({ got: body ?? null }),
      noCaller,
    );

  it.each([
    ["malformed JSON", "{", 400, 400],
    ["not an object", "[1]", 400, 400],
    ["a wrong type", '{"name": 5}', 400, 400],
    ["a required field missing", "{}", 422, 422],
    ["a value that breaks a rule", '{"name": ""}', 400, 422],
    ["a value not among the choices", '{"name": "x", "role": "c"}', 400, 422],
    ["a choice of the wrong type", '{"name": "x", "role": 5}', 400, 400],
  ])("%s: %i, or %i on a route that says invalid: 422", async (_what, body, plain, strict) => {
    expect((await make()(...post(body))).status).toBe(plain);
    expect((await make({ invalid: 422 })(...post(body))).status).toBe(strict);
  });

  it("an optional body: none, or a blank one, reaches the handler as undefined", async () => {
    const optional = make({ optional: true });
    expect(await (await optional(...post(undefined))).json()).toEqual({ got: null });
    expect(await (await optional(...post("  "))).json()).toEqual({ got: null });
    expect(await (await optional(...post('{"name":"x"}'))).json()).toEqual({ got: { name: "x" } });
    expect((await optional(...post('{"name": 1}'))).status).toBe(400);
  });
});
