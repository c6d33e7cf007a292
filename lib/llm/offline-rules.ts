// The plain-language rules the offline model can judge and follow, so a crew's guardrails show
// fail → retry → pass with no real model: word limits and words that must (not) appear.

type Rules = { maxWords?: number; mention: string[]; forbid: string[] };

// The term: quoted, or the words up to the next punctuation.
const QUOTED = `["'“‘]?([^"'“”‘’.,;:\\n]+)`;

function parseRules(text: string): Rules {
  const rules: Rules = { mention: [], forbid: [] };
  for (const m of text.matchAll(
    /\b(at most|no more than|fewer than|less than|under|maximum of|max(?:imum)?|up to)\s+(\d+)\s+words\b/gi,
  )) {
    const n = Number(m[2]) - (/fewer|less|under/i.test(m[1] ?? "") ? 1 : 0);
    rules.maxWords = Math.min(rules.maxWords ?? n, n);
  }
  const forbid = new RegExp(
    `\\b(?:must|should)\\s+(?:not|never)\\s+(?:mention|include|contain|name)\\s+${QUOTED}`,
    "gim",
  );
  for (const m of text.matchAll(forbid)) if (m[1]) rules.forbid.push(m[1].trim());
  const mention = new RegExp(
    `\\b(?:must|should)\\s+(?:mention|include|contain|name)\\s+${QUOTED}`,
    "gim",
  );
  for (const m of text.matchAll(mention)) if (m[1]) rules.mention.push(m[1].trim());
  return rules;
}

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** The offline model's verdict: the first rule broken, or a pass. */
export function judge(rule: string, output: string): { pass: boolean; reason: string } {
  const r = parseRules(rule);
  const words = wordCount(output);
  if (r.maxWords !== undefined && words > r.maxWords)
    return {
      pass: false,
      reason: `The output has ${words} words; the rule allows at most ${r.maxWords}.`,
    };
  const lower = output.toLowerCase();
  const missing = r.mention.find((t) => !lower.includes(t.toLowerCase()));
  if (missing) return { pass: false, reason: `The output does not mention '${missing}'.` };
  const present = r.forbid.find((t) => lower.includes(t.toLowerCase()));
  if (present) return { pass: false, reason: `The output mentions '${present}'.` };
  const checked = r.maxWords !== undefined || r.mention.length || r.forbid.length;
  return {
    pass: true,
    reason: checked
      ? "The output follows the rule."
      : "No rule the offline model can check (word limits, words to mention).",
  };
}

/** A short answer that keeps every rule in `feedback`: what the offline model sends on retry. */
export function revise(firstLine: string, feedback: string): string {
  const r = parseRules(feedback);
  let text = [
    ...(r.mention.length ? [`Covers ${r.mention.join(", ")}:`] : []),
    `${firstLine} (revised by the offline model)`,
  ].join(" ");
  for (const t of r.forbid) text = text.replace(new RegExp(escapeRegExp(t), "gi"), "—");
  if (r.maxWords !== undefined) text = text.split(/\s+/).slice(0, r.maxWords).join(" ");
  return text;
}

function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
