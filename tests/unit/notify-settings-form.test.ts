import { describe, expect, it } from "vitest";
import { smtpBody, withoutSlack } from "@/components/settings/notify-body";

// What the notification settings form sends: e-mail off for a blank host, the port defaulted,
// blanks left out; removing Slack keeps the saved SMTP server and its password.
const typed = { host: " smtp.example.com ", port: "", user: " ", password: "", from: " a@b.c " };

describe("smtpBody", () => {
  it("turns e-mail off when the host is blank", () => {
    expect(smtpBody({ ...typed, host: "  " }, "starttls")).toBeNull();
  });
  it("trims, takes port 587 when none is typed and leaves blanks out", () => {
    expect(smtpBody(typed, "tls")).toEqual({
      host: "smtp.example.com",
      port: 587,
      tls: "tls",
      user: undefined,
      password: undefined,
      from: "a@b.c",
    });
  });
  it("sends a typed port, user and password", () => {
    const body = smtpBody({ ...typed, port: "2525", user: " me ", password: " s " }, "none");
    expect(body).toMatchObject({ port: 2525, user: "me", password: " s " });
  });
});

describe("withoutSlack", () => {
  it("sends the saved server back without its password, and no Slack", () => {
    const saved = {
      smtp: {
        host: "h",
        port: 25,
        tls: "none" as const,
        user: null,
        from: "f@x.y",
        password_saved: true,
      },
      slack: { configured: true, url_hint: "…abc" },
    };
    expect(withoutSlack(saved)).toEqual({
      smtp: { ...saved.smtp, user: undefined, password: undefined },
      slack_webhook_url: null,
    });
    expect(withoutSlack({ ...saved, smtp: null })).toEqual({ smtp: null, slack_webhook_url: null });
  });
});
