import { contract, request } from "./request";

const crewSchemas = contract(() => import("@/lib/contract/crew"));

// A crew's inputs: names (as CrewAI answers) and the JSON Schema the kickoff form is built from.
export const inputsApi = {
  get: (crew: string) =>
    request(
      crewSchemas("InputsResponseSchema"),
      "GET",
      `/api/crews/${encodeURIComponent(crew)}/inputs`,
    ),
};
