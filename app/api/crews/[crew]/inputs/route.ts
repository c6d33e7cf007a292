// GET /inputs — the names of the inputs the crew requires.

import { z } from "zod";
import { forwardGet } from "@/lib/deployments/remote-runs";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

const RemoteInputsSchema = z.object({ inputs: z.array(z.string().max(200)).max(200) });

export const GET = crewRoute(async ({ crew, deployment }) => {
  if (!deployment) return json({ inputs: crew.inputs });
  const parsed = RemoteInputsSchema.safeParse((await forwardGet(deployment, "/inputs")).body);
  if (!parsed.success)
    throw new AppError(
      "remote-error",
      502,
      'The deployment\'s /inputs did not answer {"inputs": [...]}; check its base URL in Settings → Deployments.',
    );
  return json(parsed.data);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
