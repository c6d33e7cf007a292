import crypto from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  newSecret,
  SIGNATURE_KINDS,
  type Verified,
  verifyDelivery,
} from "@/lib/triggers/signatures";

// Every check runs against a fixed clock: NOW, and timestamps a set distance from it.
const NOW = new Date("2026-03-01T12:00:00Z");
const NOW_SECONDS = NOW.getTime() / 1000;
const BODY = Buffer.from('{"action":"opened","issue":{"number":7}}');

function reasonOf(result: Verified): string {
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.reason;
}

describe("newSecret", () => {
  it("gives each kind its own form, fresh every time", () => {
    expect(newSecret("standard")).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(newSecret("standard").slice(6), "base64")).toHaveLength(24);
    expect(newSecret("github")).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret("shared")).toMatch(/^cdt_[A-Za-z0-9_-]{32}$/);
    for (const kind of SIGNATURE_KINDS) expect(newSecret(kind)).not.toBe(newSecret(kind));
  });
});

describe("standard (Standard Webhooks)", () => {
  const secret = newSecret("standard");
  const signed = (at: number, body = BODY, key = secret, id = "msg_1") => ({
    "webhook-id": id,
    "webhook-timestamp": String(at),
    "webhook-signature": new Webhook(key).sign(id, new Date(at * 1000), body),
  });

  it("reproduces the specification's test vector", () => {
    const headers = {
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };
    const body = Buffer.from('{"test": 2432232314}');
    const at = new Date(1614265330 * 1000);
    expect(
      verifyDelivery("standard", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", headers, body, at),
    ).toEqual({ ok: true, deliveryId: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: at });
    // The reference libraries take the secret without its prefix too.
    expect(
      verifyDelivery("standard", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", headers, body, at).ok,
    ).toBe(true);
  });

  it("accepts what the official library signs, and gives its id and time", () => {
    const result = verifyDelivery("standard", secret, signed(NOW_SECONDS - 10), BODY, NOW);
    expect(result).toEqual({
      ok: true,
      deliveryId: "msg_1",
      timestamp: new Date((NOW_SECONDS - 10) * 1000),
    });
  });

  it("agrees with an HMAC computed here over id.timestamp.body", () => {
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const mac = crypto.createHmac("sha256", key).update(`msg_2.${NOW_SECONDS}.`).update(BODY);
    const headers = {
      "webhook-id": "msg_2",
      "webhook-timestamp": String(NOW_SECONDS),
      "webhook-signature": `v1,${mac.digest("base64")}`,
    };
    expect(verifyDelivery("standard", secret, headers, BODY, NOW).ok).toBe(true);
  });

  it("refuses a tampered body, another secret and a changed id", () => {
    const headers = signed(NOW_SECONDS);
    const tampered = Buffer.from(BODY.toString().replace("7", "8"));
    expect(reasonOf(verifyDelivery("standard", secret, headers, tampered, NOW))).toBe(
      "The webhook-signature header does not match the body signed with this trigger's secret.",
    );
    const other = newSecret("standard");
    expect(reasonOf(verifyDelivery("standard", other, headers, BODY, NOW))).toMatch(
      /webhook-signature header does not match/,
    );
    const moved = { ...headers, "webhook-id": "msg_other" };
    expect(verifyDelivery("standard", secret, moved, BODY, NOW).ok).toBe(false);
  });

  it("accepts a header with several signatures when one of them matches", () => {
    const headers = signed(NOW_SECONDS);
    const rotated = {
      ...headers,
      "webhook-signature": `v1,bm90LXRoaXMtb25l v1a,c29tZXRoaW5nLWVsc2U= ${headers["webhook-signature"]}`,
    };
    expect(verifyDelivery("standard", secret, rotated, BODY, NOW).ok).toBe(true);
    const noneMatch = {
      ...headers,
      "webhook-signature": "v1,bm90LXRoaXMtb25l v1,YW5kLW5vdC10aGlz",
    };
    expect(verifyDelivery("standard", secret, noneMatch, BODY, NOW).ok).toBe(false);
  });

  it("refuses a signature of another length, or under another version, without throwing", () => {
    const headers = signed(NOW_SECONDS);
    const good = headers["webhook-signature"].slice(3);
    for (const signature of [`v1,${good}AA`, `v1,${good.slice(0, 10)}`, `v2,${good}`, good, "v1,"])
      expect(
        verifyDelivery(
          "standard",
          secret,
          { ...headers, "webhook-signature": signature },
          BODY,
          NOW,
        ).ok,
      ).toBe(false);
  });

  it("refuses a delivery stamped outside the window, either way, and says why", () => {
    const stale = signed(NOW_SECONDS - 301);
    expect(reasonOf(verifyDelivery("standard", secret, stale, BODY, NOW))).toBe(
      "The webhook-timestamp header is more than 300 seconds old: an old or replayed delivery is refused.",
    );
    const future = signed(NOW_SECONDS + 301);
    expect(reasonOf(verifyDelivery("standard", secret, future, BODY, NOW))).toMatch(
      /webhook-timestamp header is more than 300 seconds in the future/,
    );
    // At the edges, and with a tolerance of the caller's choosing.
    expect(verifyDelivery("standard", secret, signed(NOW_SECONDS - 300), BODY, NOW).ok).toBe(true);
    expect(verifyDelivery("standard", secret, signed(NOW_SECONDS + 300), BODY, NOW).ok).toBe(true);
    expect(verifyDelivery("standard", secret, stale, BODY, NOW, 600).ok).toBe(true);
  });

  it("refuses a timestamp that is not whole seconds", () => {
    for (const stamp of ["soon", "1.5", "-1", `${NOW.getTime()}x`, " 1"]) {
      const headers = { ...signed(NOW_SECONDS), "webhook-timestamp": stamp };
      expect(reasonOf(verifyDelivery("standard", secret, headers, BODY, NOW))).toBe(
        "The webhook-timestamp header is not a whole number of seconds since 1970.",
      );
    }
  });

  it("names the missing header", () => {
    const headers = signed(NOW_SECONDS);
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const without = { ...headers, [name]: undefined };
      expect(reasonOf(verifyDelivery("standard", secret, without, BODY, NOW))).toMatch(
        new RegExp(`^Missing the ${name} header`),
      );
    }
  });
});

describe("github", () => {
  const secret = newSecret("github");
  const sign = (body: Buffer, key = secret) =>
    `sha256=${crypto.createHmac("sha256", Buffer.from(key, "utf8")).update(body).digest("hex")}`;

  it("accepts GitHub's signature and gives the delivery id, with no timestamp", () => {
    const headers = { "x-hub-signature-256": sign(BODY), "x-github-delivery": "72d3162e-cc78" };
    expect(verifyDelivery("github", secret, headers, BODY, NOW)).toEqual({
      ok: true,
      deliveryId: "72d3162e-cc78",
      timestamp: null,
    });
    // GitHub's own example in its docs: secret "It's a Secret to Everybody", body "Hello, World!".
    const documented = {
      "x-hub-signature-256":
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    };
    expect(
      verifyDelivery(
        "github",
        "It's a Secret to Everybody",
        documented,
        Buffer.from("Hello, World!"),
        NOW,
      ),
    ).toEqual({ ok: true, deliveryId: null, timestamp: null });
  });

  it("refuses a tampered body, another secret and a signature of another length", () => {
    const tampered = Buffer.from(`${BODY.toString()} `);
    expect(
      reasonOf(
        verifyDelivery("github", secret, { "x-hub-signature-256": sign(BODY) }, tampered, NOW),
      ),
    ).toBe(
      "The x-hub-signature-256 header does not match the body signed with this trigger's secret.",
    );
    const other = { "x-hub-signature-256": sign(BODY, newSecret("github")) };
    expect(verifyDelivery("github", secret, other, BODY, NOW).ok).toBe(false);
    for (const signature of [sign(BODY).slice(0, -2), `${sign(BODY)}00`, sign(BODY).slice(7)])
      expect(
        verifyDelivery("github", secret, { "x-hub-signature-256": signature }, BODY, NOW).ok,
      ).toBe(false);
  });

  it("names the missing header", () => {
    expect(reasonOf(verifyDelivery("github", secret, {}, BODY, NOW))).toBe(
      "Missing the x-hub-signature-256 header (GitHub signs every delivery when the webhook has a secret).",
    );
  });
});

describe("shared", () => {
  const secret = newSecret("shared");

  it("accepts the secret as a bearer token or in x-webhook-secret", () => {
    expect(
      verifyDelivery("shared", secret, { authorization: `Bearer ${secret}` }, BODY, NOW),
    ).toEqual({ ok: true, deliveryId: null, timestamp: null });
    expect(
      verifyDelivery("shared", secret, { authorization: `bearer ${secret}` }, BODY, NOW).ok,
    ).toBe(true);
    const headers = { "x-webhook-secret": secret, "idempotency-key": "evt_9" };
    expect(verifyDelivery("shared", secret, headers, BODY, NOW)).toEqual({
      ok: true,
      deliveryId: "evt_9",
      timestamp: null,
    });
    const byDeliveryId = { "x-webhook-secret": secret, "x-delivery-id": "d-1" };
    expect(verifyDelivery("shared", secret, byDeliveryId, BODY, NOW)).toMatchObject({
      deliveryId: "d-1",
    });
  });

  it("refuses another secret, of the same length or not, and never repeats it", () => {
    const other = newSecret("shared");
    const reason = reasonOf(
      verifyDelivery("shared", secret, { authorization: `Bearer ${other}` }, BODY, NOW),
    );
    expect(reason).toBe("The authorization header does not carry this trigger's secret.");
    expect(reason).not.toContain(secret);
    expect(
      reasonOf(
        verifyDelivery("shared", secret, { "x-webhook-secret": secret.slice(1) }, BODY, NOW),
      ),
    ).toBe("The x-webhook-secret header does not carry this trigger's secret.");
    expect(
      verifyDelivery("shared", secret, { authorization: `Basic ${secret}` }, BODY, NOW).ok,
    ).toBe(false);
  });

  it("names the missing headers, and never accepts an empty secret", () => {
    expect(reasonOf(verifyDelivery("shared", secret, {}, BODY, NOW))).toBe(
      "Missing the authorization header (Bearer <secret>) or the x-webhook-secret header.",
    );
    expect(verifyDelivery("shared", "", { "x-webhook-secret": "" }, BODY, NOW).ok).toBe(false);
    expect(verifyDelivery("shared", "", { authorization: "Bearer " }, BODY, NOW).ok).toBe(false);
  });

  it("applies the window when the sender stamps its deliveries", () => {
    const fresh = { "x-webhook-secret": secret, "webhook-timestamp": String(NOW_SECONDS - 5) };
    expect(verifyDelivery("shared", secret, fresh, BODY, NOW)).toEqual({
      ok: true,
      deliveryId: null,
      timestamp: new Date((NOW_SECONDS - 5) * 1000),
    });
    const stale = { ...fresh, "webhook-timestamp": String(NOW_SECONDS - 3600) };
    expect(reasonOf(verifyDelivery("shared", secret, stale, BODY, NOW))).toMatch(/seconds old/);
  });
});

describe("every kind", () => {
  it("refuses a trigger with no secret", () => {
    for (const kind of SIGNATURE_KINDS)
      expect(reasonOf(verifyDelivery(kind, "", {}, BODY, NOW))).toBe(
        "This trigger has no secret to check deliveries against.",
      );
  });
});
