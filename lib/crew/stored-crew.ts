import { z } from "zod";
import type { CrewDef } from "./schema";

// A crew definition read back from storage (an experiment's pinned variants): written by this
// service from a loaded crew, so the shape every reader relies on is checked, not the whole
// definition again — and checked, not rebuilt, so the definition keeps its keys in their order
// (its JSON, and so its stored key, stay what they were).

const CrewShape = z.looseObject({
  slug: z.string(),
  name: z.string(),
  agents: z.array(z.looseObject({ id: z.string(), tools: z.array(z.string()) })),
  tasks: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      agent: z.string(),
      description: z.string(),
      expected_output: z.string(),
    }),
  ),
  inputs: z.array(z.string()),
  source: z.array(z.string()),
});

/** What is wrong with `value` as a crew definition, field by field; undefined when nothing. */
function shapeProblem(value: unknown): string | undefined {
  const checked = CrewShape.safeParse(value);
  return checked.success ? undefined : z.prettifyError(checked.error).replaceAll("\n", " ");
}

export const StoredCrewSchema = z.custom<CrewDef>((v) => CrewShape.safeParse(v).success, {
  error: (issue) => `not a crew definition: ${shapeProblem(issue.input)}`,
});
