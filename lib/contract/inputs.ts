import { z } from "zod";

// The JSON Schema GET /inputs publishes for a crew's inputs (lib/crew/input-schema.ts builds it).
const INPUT_CONTROLS = [
  "text",
  "textarea",
  "number",
  "checkbox",
  "select",
  "date",
  "json",
] as const;
export type InputControl = (typeof INPUT_CONTROLS)[number];

const InputScalarSchema = z.union([z.string(), z.number(), z.boolean()]);

const InputPropertySchema = z
  .object({
    type: z.enum(["string", "number", "boolean"]),
    title: z.string(),
    description: z.string().optional(),
    default: InputScalarSchema.optional(),
    examples: z.array(InputScalarSchema).optional(),
    enum: z.array(z.string()).optional(),
    format: z.literal("date").optional(),
    contentMediaType: z
      .literal("application/json")
      .optional()
      .describe("json inputs: JSON text (kickoff also takes the JSON value itself)"),
    "x-control": z.enum(INPUT_CONTROLS).describe("The form control that suits the input"),
  })
  .meta({ id: "InputProperty" });

/** GET /inputs's `input_schema`: a JSON Schema object of the kickoff's `inputs`. */
export const InputSchema = z
  .object({
    type: z.literal("object"),
    properties: z.record(z.string(), InputPropertySchema),
    required: z.array(z.string()),
    "x-order": z.array(z.string()).describe("The input names in the crew's order"),
  })
  .meta({ id: "InputSchema" });

export type InputSchema = z.infer<typeof InputSchema>;
export type InputProperty = z.infer<typeof InputPropertySchema>;
