import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signReviewLink } from "@/lib/notify/link-token";
import { call, crewClient, expectProblem, type Json, type Reply } from "../support/api";
import {
  freePort,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { addPerson, adminHeaders } from "../support/people";
import { startReceiver } from "../support/receiver";
import { signIn } from "../support/session";
import { type Mail, type Smtp, startSmtp } from "../support/smtp";

// Notifications (issue 15 item 4): e-mail through a real SMTP server on loopback and Slack
// through an incoming webhook, both from the webhook outbox; each review message carries a
// signed, expiring link that opens the review after sign-in.
const CREWS: Record<string, string> = {
  "notify-review": `
name: Notify crew
agents:
  writer: { role: Writer, goal: "Write about {subject}", backstory: Brief., llm: offline }
tasks:
  draft:
    name: Draft
    description: "Draft a note on {subject}"
    expected_output: A note
    agent: writer
    human_input: true
`,
};
const AUTH_SECRET = "notifications-test-auth-secret-0123456789";
const SMTP_PASSWORD = "smtp-password-never-shown-4f9a";
const SLACK_PATH = "/services/T000/B000/slack-secret-path";

let server: Proc & { url: string };
let smtp: Smtp;
let slack: Awaited<ReturnType<typeof startReceiver>>;
let admin: Record<string, string>;
// Every answer the API gave in this file: none may contain the SMTP password.
const answers: Reply[] = [];
const api = async (...args: Parameters<typeof call>) => {
  const r = await call(...args);
  answers.push(r);
  return r;
};

beforeAll(async () => {
  smtp = await startSmtp({ password: SMTP_PASSWORD });
  slack = await startReceiver();
  const dir = tempDir("notify-crews");
  for (const [slug, yaml] of Object.entries(CREWS)) {
    fs.mkdirSync(path.join(dir, slug));
    fs.writeFileSync(path.join(dir, slug, "crew.yaml"), yaml);
  }
  const databaseUrl = inject("db") === "postgres" ? await freshPostgresDatabase() : undefined;
  const port = await freePort();
  server = await startServer({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: tempDir("notify"),
    CREWS_DIR: dir,
    CREW_TOKEN: TEST_CREW_TOKEN,
    AUTH_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    // The SMTP server and the Slack receiver live on loopback.
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    // Quick retries, enough of them to ride out the SMTP outage below.
    WEBHOOK_RETRY_SCHEDULE: Array(40).fill("250").join(","),
    WEBHOOK_TIMEOUT_MS: "3000",
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_POLL_MS: "100",
  });
  admin = await adminHeaders(server.url);
}, 120_000);
afterAll(async () => {
  await server?.kill();
  await smtp?.down();
  await slack?.close();
});

const settings = (smtpPort: number) => ({
  smtp: {
    host: "127.0.0.1",
    port: smtpPort,
    tls: "none",
    user: "mailer",
    password: SMTP_PASSWORD,
    from: "crewdeck@example.com",
  },
  slack_webhook_url: slack.url(SLACK_PATH),
});
const crew = () => crewClient(server.url, "notify-review", TEST_CREW_TOKEN);
const paused = (s: Json) => s.status === "pending_human_input";
const deliveries = async (executionId: string) => {
  const r = await api(server.url, "GET", `/api/webhooks/deliveries?execution_id=${executionId}`, {
    token: TEST_CREW_TOKEN,
  });
  expect(r.status, r.text).toBe(200);
  return r.json.deliveries as Json[];
};
const linkIn = (mail: Mail) => {
  const m = /(http:\/\/\S+\/review-link\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(mail.text ?? "");
  if (!m?.[1]) throw new Error(`no review link in:\n${mail.text}`);
  return new URL(m[1]);
};
const addressedTo = (email: string, subject: string) => (m: Mail) =>
  m.to_addresses.includes(email) && (m.subject ?? "").startsWith(subject);

describe("notification settings", () => {
  it("are saved by an administrator; the SMTP password and the Slack URL never come back", async () => {
    const put = await api(server.url, "PUT", "/api/settings/notifications", {
      headers: admin,
      body: settings(smtp.port()),
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({
      smtp: {
        host: "127.0.0.1",
        port: smtp.port(),
        tls: "none",
        user: "mailer",
        from: "crewdeck@example.com",
        password_saved: true,
      },
      slack: { configured: true, url_hint: expect.stringMatching(/^127\.0\.0\.2:\d+$/) },
    });
    const get = await api(server.url, "GET", "/api/settings/notifications", { headers: admin });
    expect(get.json).toEqual(put.json);
    expect(get.text).not.toContain("slack-secret-path");
  });

  it("a test e-mail goes to the administrator through the saved server, logged in", async () => {
    const r = await api(server.url, "POST", "/api/settings/notifications/test", {
      headers: admin,
      body: {},
    });
    expect(r.json).toEqual({ ok: true, to: TEST_ADMIN.email, error: null });
    await smtp.waitFor(addressedTo(TEST_ADMIN.email, "Crewdeck test e-mail"));
    expect(smtp.logins).toContain("mailer");
  });

  it("refuse what is malformed or not allowed, and anyone but an administrator", async () => {
    const viewer = await addPerson(server.url, { email: "viewer@example.com", role: "viewer" });
    const viewerCookie = await signIn(server.url, viewer.email, viewer.password);
    const cases: [string, Record<string, string>, unknown, number][] = [
      ["not JSON", admin, "{", 400],
      ["smtp missing", admin, {}, 422],
      ["port out of range", admin, { smtp: { ...settings(1).smtp, port: 70000 } }, 400],
      [
        "a host this server may not call",
        admin,
        { smtp: { ...settings(25).smtp, host: "169.254.169.254" } },
        400,
      ],
      [
        "a Slack URL on a private network",
        admin,
        { smtp: null, slack_webhook_url: "http://10.1.2.3/hook" },
        400,
      ],
      ["a viewer", { cookie: viewerCookie, origin: server.url }, settings(25), 403],
    ];
    for (const [name, headers, body, status] of cases) {
      const r = await api(server.url, "PUT", "/api/settings/notifications", { headers, body });
      expect(r.status, `${name}: ${r.text}`).toBe(status);
      expectProblem(r, status);
    }
    // Nothing refused was saved.
    const get = await api(server.url, "GET", "/api/settings/notifications", { headers: admin });
    expect(get.json.smtp.host).toBe("127.0.0.1");
  });
});

describe("a review waiting", () => {
  let rev1: { id: string; email: string; password: string };
  let rev2: { id: string; email: string; password: string };
  let id: string;
  let mail: Mail;

  beforeAll(async () => {
    rev1 = await addPerson(server.url, { email: "rev1@example.com", role: "reviewer" });
    rev2 = await addPerson(server.url, { email: "rev2@example.com", role: "reviewer" });
  });

  it("each person's preferences are their own; rev2 turns e-mail off for reviews waiting", async () => {
    const rev2Headers = {
      cookie: await signIn(server.url, rev2.email, rev2.password),
      origin: server.url,
    };
    const mine = await api(server.url, "GET", "/api/me/notifications", { headers: rev2Headers });
    expect(mine.json).toEqual({
      review_waiting: { email: true, slack: true },
      review_reminder: { email: true, slack: true },
      review_escalation: { email: true, slack: true },
      run_outcome: { email: true, slack: false },
    });
    const off = { ...mine.json, review_waiting: { email: false, slack: true } };
    const put = await api(server.url, "PUT", "/api/me/notifications", {
      headers: rev2Headers,
      body: off,
    });
    expect(put.json).toEqual(off);
    expectProblem(
      await api(server.url, "PUT", "/api/me/notifications", {
        headers: rev2Headers,
        body: { ...off, run_outcome: { email: "yes", slack: false } },
      }),
      400,
    );
    // An organization token is nobody: it has no preferences.
    expectProblem(
      await api(server.url, "GET", "/api/me/notifications", { token: TEST_CREW_TOKEN }),
      403,
    );
    // The administrator's are untouched.
    const admins = await api(server.url, "GET", "/api/me/notifications", { headers: admin });
    expect(admins.json.review_waiting).toEqual({ email: true, slack: true });
  });

  it("is e-mailed to everyone who may review (who wants it), with the task, crew, output and link", async () => {
    const kickoff = await api(server.url, "POST", "/api/crews/notify-review/kickoff", {
      headers: admin,
      body: { inputs: { subject: "herons" } },
    });
    expect(kickoff.status, kickoff.text).toBe(200);
    id = kickoff.json.kickoff_id;
    await crew().waitFor(id, paused);
    mail = await smtp.waitFor(addressedTo(rev1.email, "Review waiting: Draft — Notify crew"));
    await smtp.waitFor(addressedTo(TEST_ADMIN.email, "Review waiting: Draft — Notify crew"));
    expect(mail.from?.text).toContain("crewdeck@example.com");
    expect(mail.text).toContain("Task: Draft");
    expect(mail.text).toContain("Crew: Notify crew");
    expect(mail.text).toContain(`Run: ${id}`);
    expect(mail.text).toMatch(/Output:\n\S/);
    expect(mail.html).toContain("Open the review");
    expect(linkIn(mail).origin).toBe(server.url);

    // rev2's e-mail would have been written in the same transaction as the others: it is not.
    const rows = await deliveries(id);
    const emails = rows
      .filter((d) => d.kind === "email")
      .map((d) => d.url)
      .sort();
    expect(emails).toEqual([`mailto:${TEST_ADMIN.email}`, `mailto:${rev1.email}`]);
    expect(smtp.messages.some((m) => m.to_addresses.includes(rev2.email))).toBe(false);
  });

  it("reaches Slack as JSON naming everyone who wants it there (rev2 too)", async () => {
    const start = Date.now();
    while (!slack.received.some((r) => r.path === SLACK_PATH)) {
      if (Date.now() - start > 20_000) throw new Error("no Slack message");
      await new Promise((r) => setTimeout(r, 50));
    }
    const body = slack.received.find((r) => r.path === SLACK_PATH)?.body;
    expect(body.text).toMatch(
      /^Review waiting: Draft — Notify crew \(for .*rev2@example\.com.*\) — http:\/\/.*\/review-link\//,
    );
    expect(body.blocks.length).toBeGreaterThan(1);
    const slackRow = (await deliveries(id)).find((d) => d.kind === "slack");
    expect(slackRow).toMatchObject({ status: "succeeded", url: "slack:incoming-webhook" });
  });

  it("its link sends a signed-out browser to sign in, and back to the link after", async () => {
    const link = linkIn(mail);
    const r = await fetch(link, { redirect: "manual" });
    expect(r.status).toBe(307);
    const to = new URL(r.headers.get("location") ?? "", server.url);
    expect(to.pathname).toBe("/sign-in");
    expect(to.searchParams.get("next")).toBe(link.pathname);
  });

  it("signed in, its link opens the run with that review", async () => {
    const cookie = await signIn(server.url, rev1.email, rev1.password);
    const r = await fetch(linkIn(mail), { redirect: "manual", headers: { cookie } });
    expect(r.status).toBe(307);
    expect(r.headers.get("location")).toBe(`/crews/notify-review/runs/${id}?task=draft`);
    const page = await fetch(new URL(r.headers.get("location") ?? "", server.url), {
      headers: { cookie },
    });
    expect(page.status).toBe(200);
  });

  it("a tampered or expired link is refused with a page that says so", async () => {
    const cookie = await signIn(server.url, rev1.email, rev1.password);
    const link = linkIn(mail);
    const [body, sig] = (link.pathname.split("/").at(-1) ?? "").split(".") as [string, string];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const tampered = `${Buffer.from(JSON.stringify({ ...payload, task_id: "other" })).toString("base64url")}.${sig}`;
    const expired = signReviewLink(
      AUTH_SECRET,
      { execution_id: id, crew: "notify-review", task_id: "draft", attempt: 1, recipient: rev1.id },
      { ttlHours: 1, now: Date.now() - 2 * 3_600_000 },
    );
    for (const [token, says] of [
      [tampered, "This review link is not valid"],
      [`${body}.${sig.slice(0, -2)}`, "This review link is not valid"],
      [expired, "This review link has expired"],
    ] as const) {
      const r = await fetch(`${server.url}/review-link/${token}`, {
        redirect: "manual",
        headers: { cookie },
      });
      expect(r.status).toBe(200);
      const html = await r.text();
      expect(html).toContain(says);
      expect(html).toContain('href="/inbox"');
    }
  });

  it("the run's outcome goes to the person who started it", async () => {
    const r = await crew().resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "",
      is_approve: true,
    });
    expect(r.status, r.text).toBe(200);
    await crew().waitFor(id, (s) => s.status === "completed");
    const outcome = await smtp.waitFor(addressedTo(TEST_ADMIN.email, "Run completed: Notify crew"));
    expect(outcome.text).toContain("Result:");
    const rows = await deliveries(id);
    // Only the starter: the reviewers hear of the review, not of the outcome.
    expect(
      rows
        .filter((d) => d.kind === "email")
        .map((d) => d.url)
        .sort(),
    ).toEqual([`mailto:${TEST_ADMIN.email}`, `mailto:${TEST_ADMIN.email}`, `mailto:${rev1.email}`]);
  });

  it("a disabled person receives nothing", async () => {
    const off = await api(server.url, "PATCH", `/api/users/${rev1.id}`, {
      headers: admin,
      body: { disabled: true },
    });
    expect(off.status, off.text).toBe(200);
    const next = await crew().start({ subject: "disabled" });
    await crew().waitFor(next, paused);
    await smtp.waitFor(
      (m) => m.to_addresses.includes(TEST_ADMIN.email) && (m.text ?? "").includes(next),
    );
    const emails = (await deliveries(next)).filter((d) => d.kind === "email").map((d) => d.url);
    expect(emails).toEqual([`mailto:${TEST_ADMIN.email}`]);
    await api(server.url, "PATCH", `/api/users/${rev1.id}`, {
      headers: admin,
      body: { disabled: false },
    });
  });
});

describe("delivery", () => {
  it("an SMTP server that is down: the attempts show in the delivery log, then it succeeds", async () => {
    await smtp.down();
    const id = await crew().start({ subject: "outage" });
    await crew().waitFor(id, paused);
    const start = Date.now();
    let mine: Json;
    for (;;) {
      mine = (await deliveries(id)).find(
        (d) => d.kind === "email" && d.url === `mailto:${TEST_ADMIN.email}`,
      );
      if (mine && mine.attempts >= 2 && mine.status !== "succeeded") break;
      if (Date.now() - start > 20_000)
        throw new Error(`no failed attempts: ${JSON.stringify(mine)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(mine.last_error).toMatch(/^SMTP: /);
    expect(mine.attempts_log[0].error).toMatch(/^SMTP: /);
    // The log can be filtered by channel.
    const log = await api(
      server.url,
      "GET",
      `/api/webhooks/deliveries?kind=email&execution_id=${id}`,
      {
        token: TEST_CREW_TOKEN,
      },
    );
    expect(log.json.deliveries.length).toBeGreaterThan(0);
    expect(log.json.deliveries.every((d: Json) => d.kind === "email")).toBe(true);

    await smtp.up();
    await smtp.waitFor(
      (m) => m.to_addresses.includes(TEST_ADMIN.email) && (m.text ?? "").includes(id),
    );
    const until = Date.now() + 20_000;
    while ((await deliveries(id)).find((d) => d.id === mine.id)?.status !== "succeeded") {
      if (Date.now() > until) throw new Error("the delivery was not marked succeeded");
      await new Promise((r) => setTimeout(r, 100));
    }
    const done = (await deliveries(id)).find((d) => d.id === mine.id);
    expect(done.attempts).toBeGreaterThan(mine.attempts - 1);
    expect(done.last_status_code).toBe(250);
  });

  it("the SMTP password appeared in no answer of this file", () => {
    expect(answers.length).toBeGreaterThan(10);
    for (const r of answers) expect(r.text).not.toContain(SMTP_PASSWORD);
  });
});
