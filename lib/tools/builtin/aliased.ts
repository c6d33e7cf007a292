import { z } from "zod";

/**
 * An object schema that also takes CrewAI's argument names (`{file_path: "path"}`): the model is
 * shown only ours, and a call written for CrewAI's tool still passes validation.
 */
export function aliased<T extends z.ZodObject>(schema: T, aliases: Record<string, string>) {
  return z.preprocess((v) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    const out: Record<string, unknown> = { ...v };
    for (const [theirs, ours] of Object.entries(aliases)) {
      if (!(theirs in out)) continue;
      if (!(ours in out)) out[ours] = out[theirs];
      delete out[theirs];
    }
    return out;
  }, schema);
}
