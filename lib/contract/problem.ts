import { z } from "zod";

// What every error answers (RFC 9457, with CrewAI's members), and the answer without a body.
export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    error: z
      .union([z.string(), z.object({ code: z.string(), message: z.string() })])
      .describe(
        "CrewAI's error member: the kind of error (e.g. 'Validation Error'); on integration actions, {code, message} as CrewAI's platform tools read it",
      ),
    message: z.string().describe("CrewAI's message member: the same text as `detail`"),
    details: z
      .object({ missing_inputs: z.array(z.string()) })
      .optional()
      .describe("CrewAI's validation details (422 for missing inputs)"),
    missing_inputs: z.array(z.string()).optional(),
    // Loose: a dataset upload's errors also name the row (and line) each is about.
    errors: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem" });

/** An answer without a body (204). */
export const NoContentSchema = z.undefined();
