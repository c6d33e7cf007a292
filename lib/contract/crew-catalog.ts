import { z } from "zod";
import { InputSchema } from "./inputs";

// GET /api/crews and GET /api/crews/{crew}/definition: what a program needs to know of the crews
// and flows served here before it starts one — their inputs, agents, models and tools, and every
// warning the loader has about them, with the file and line to fix.

const ProblemAt = {
  file: z.string().describe("Relative to CREWS_DIR"),
  key: z.string().describe("The key at fault, as written (`agents.writer.tools.0`)"),
  line: z.number().int().nullable().describe("The line the key is on, when the file has it"),
};

const CrewWarningSchema = z
  .object({ ...ProblemAt, message: z.string() })
  .meta({ id: "CrewWarning" });

export const CrewDescriptionSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    kind: z.enum(["crew", "flow"]).describe("A crew, or a CrewAI Flow (flow.yaml)"),
    url: z.string().describe("The crew's base path: its API is under it"),
    inputs: z.array(z.string()),
    input_schema: InputSchema,
    process: z.enum(["sequential", "hierarchical"]).nullable(),
    agents: z.array(
      z.object({
        id: z.string(),
        role: z.string(),
        model: z
          .string()
          .describe("The agent's `llm`, else DEFAULT_LLM (LLM_OVERRIDE wins over both)"),
        tools: z.array(z.string()),
        mcps: z.array(z.string()),
      }),
    ),
    tasks: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          agent: z.string(),
          human_input: z.boolean(),
        }),
      )
      .describe("A flow's methods, `agent` naming what each calls"),
    flow: z
      .object({
        methods: z.array(
          z.object({
            name: z.string(),
            call: z.string(),
            start: z.unknown().describe("true, or the condition a conditional start waits for"),
            listen: z.unknown().nullable(),
            router: z.boolean(),
            emit: z.array(z.string()),
            human_feedback: z.boolean(),
          }),
        ),
      })
      .nullable(),
    warnings: z.array(CrewWarningSchema),
  })
  .meta({ id: "CrewDescription" });

export const CrewCatalogResponseSchema = z
  .object({
    crews: z.array(CrewDescriptionSchema),
    errors: z
      .array(z.object({ slug: z.string(), ...ProblemAt, reason: z.string() }))
      .describe("Folders that did not load, and why: they are not served"),
  })
  .meta({ id: "CrewCatalog" });

export type CrewDescription = z.infer<typeof CrewDescriptionSchema>;
