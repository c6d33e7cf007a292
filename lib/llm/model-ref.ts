// `offline`, `openai/<model>` or `anthropic/<model>`: the model an agent names in its crew file.
export type ModelRef =
  | { provider: "offline"; model: "offline" }
  | { provider: "openai" | "anthropic"; model: string };

export function parseModelRef(ref: string): { value?: ModelRef; error?: string } {
  if (ref === "offline") return { value: { provider: "offline", model: "offline" } };
  const m = /^(openai|anthropic)\/(.+)$/.exec(ref);
  if (m?.[1] && m[2]) return { value: { provider: m[1] as "openai" | "anthropic", model: m[2] } };
  return {
    error: `unknown model '${ref}': use 'offline', 'openai/<model>' or 'anthropic/<model>'`,
  };
}
