import { describe, expect, it } from "vitest";
import { redact, redactCounted } from "@/lib/tools/mcp/redact";
import { secretForms } from "@/lib/tools/mcp/resolve";

// A secret echoed with a separator between its characters ("s e c r e t", "s-e-c-r-e-t", a
// zero-width space…) is still the secret: it is blotted out as the plain one is. And the work is
// counted, not timed: one pass over the text for all the forms together, never more.

const SECRET = "mcp-redact-9d2e7b41c0";
const forms = secretForms([SECRET]);
const chars = [...SECRET];

describe("a secret written with separators between its characters", () => {
  it.each([
    ["spaces", chars.join(" ")],
    ["two spaces", chars.join("  ")],
    ["newlines", chars.join("\n")],
    ["tabs and spaces", chars.map((c, i) => (i === 0 ? c : i % 2 ? `\t${c}` : ` ${c}`)).join("")],
    ["dashes", chars.join("-")],
    ["dots", chars.join(".")],
    ["commas and spaces", chars.join(", ")],
    ["underscores", chars.join("_")],
    ["zero-width spaces", chars.join("\u200b")],
    ["no-break spaces", chars.join("\u00a0")],
    ["invisible tag characters", chars.join("\u{E0020}")],
    ["upper case, spaced", chars.join(" ").toUpperCase()],
    ["reversed, spaced", [...chars].reverse().join(" ")],
    ["only some spaced", `${SECRET.slice(0, 8)} ${SECRET.slice(8, 12)}  ${SECRET.slice(12)}`],
    ["hex, spaced", [...Buffer.from(SECRET).toString("hex")].join(" ")],
  ])("%s", (_, written) => {
    expect(redact(`token: ${written} (end)`, forms)).toBe("token: [redacted] (end)");
  });

  it("a secret that starts outside the Basic Multilingual Plane", () => {
    const key = "\u{1F511}key-material-77";
    const spaced = [...key].join(" ");
    expect(redact(`is ${spaced}.`, secretForms([key]))).toBe("is [redacted].");
  });

  it("leaves the text around it and unrelated text alone", () => {
    const text = "m c p is a protocol; redact 9 things - d 2 e";
    expect(redact(text, forms)).toBe(text);
    expect(redact(`a ${chars.join(" ")} b ${SECRET} c`, forms)).toBe("a [redacted] b [redacted] c");
  });

  it("does not let long gaps join characters far apart", () => {
    const far = chars.join(" ".repeat(9));
    expect(redact(far, forms)).toBe(far);
  });

  it("short values (under 6 characters) are still matched only as they are", () => {
    const short = secretForms(["test"]);
    expect(redact("a test, t e s t, te-st", short)).toBe("a [redacted], t e s t, te-st");
  });
});

describe("the work of redaction", () => {
  // Near-misses everywhere: every character could start a match, and each one fails only at the
  // secret's last character (the worst case for a search that starts over at each position).
  const nearMiss = (bytes: number) => {
    const unit = `${chars.slice(0, -1).join(" ")} x `;
    return unit.repeat(Math.ceil(bytes / unit.length));
  };

  it("grows linearly with the text: one step a character, for all forms at once", () => {
    const small = nearMiss(250_000);
    const large = nearMiss(2_000_000);
    const many = secretForms([SECRET, "tok-5b0e2c9a71f3", "s3cr+t/Value?x", 'pa"ss\\word-42']);
    const a = redactCounted(small, many);
    const b = redactCounted(large, many);
    expect(a.text).toBe(small);
    expect(b.text).toBe(large);
    expect(many.length).toBeGreaterThan(20);
    expect(b.steps).toBeLessThanOrEqual(large.length);
    expect(b.steps / large.length).toBeLessThanOrEqual((a.steps / small.length) * 1.01);
  });

  it("finds every copy in a large text", () => {
    const spaced = chars.join(" ");
    const text = `${"filler text, ".repeat(10)}${spaced} `.repeat(5_000);
    const out = redact(text, forms);
    expect(out.split("[redacted]")).toHaveLength(5_001);
    expect(out).not.toContain(spaced);
  });
});
