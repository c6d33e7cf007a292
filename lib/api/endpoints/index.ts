import * as admin from "./admin";
import * as automation from "./automation";
import * as calibrations from "./calibrations";
import * as crew from "./crew";
import * as deployments from "./deployments";
import type { Endpoint } from "./endpoint";
import * as experiments from "./experiments";
import * as integrations from "./integrations";
import * as notifications from "./notifications";
import * as protocols from "./protocols";
import * as rerun from "./rerun";
import * as runs from "./runs";
import * as tools from "./tools";
import * as webhooks from "./webhooks";

// Every endpoint, by area, in the order the document lists them. An area module exports nothing
// but endpoints (tests/unit/endpoints.test.ts), so each one it adds is served and documented.
const AREAS = {
  crew,
  rerun,
  automation,
  experiments,
  calibrations,
  protocols,
  runs,
  webhooks,
  integrations,
  notifications,
  tools,
  deployments,
  admin,
};

export const ENDPOINTS: readonly Endpoint[] = Object.values(AREAS).flatMap((area): Endpoint[] =>
  Object.values(area),
);
