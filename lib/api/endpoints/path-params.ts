import { z } from "zod";

// Every path parameter an endpoint's template may name, with the schema its value is parsed with
// before the handler runs: a value it refuses names nothing, so the answer is a 404 with its
// message. An endpoint's template can name no parameter that is missing here (endpoint.ts throws).

const named = (what: string) => (issue: { input?: unknown }) =>
  `No ${what} '${String(issue.input)}'.`;

export const PATH_PARAMS = {
  crew: z
    .string()
    .describe(
      "The crew's slug (its folder name), or `@<deployment>` for the crew a remote deployment serves.",
    ),
  kickoff_id: z.uuid({ error: named("execution") }).describe("The execution's `kickoff_id`."),
  task_id: z.string().describe("The task's id in the crew file."),
  id: z.string().describe("The id, as the list answers it."),
  deployment: z.string().describe("The remote deployment's slug."),
  position: z.coerce
    .number({ error: named("row") })
    .int({ error: named("row") })
    .min(1, { error: named("row") })
    .describe("The row's position."),
  run: z.uuid({ error: named("run") }).describe("The run's `kickoff_id` on this server."),
  kind: z.enum(["task", "step", "crew"], { error: named("event kind") }).describe("The event."),
  name: z.string().describe("The action's name, as GET /api/integrations/actions lists it."),
} satisfies Record<string, z.ZodType>;

export type PathParamName = keyof typeof PATH_PARAMS;

/** A UUID `id`, refused as "No <what> '<id>'." (404): a lookup by anything else finds nothing. */
export const uuidId = (what: string) =>
  z.uuid({ error: named(what) }).describe(`The ${what}'s id.`);
