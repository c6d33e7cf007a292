import { inject } from "vitest";
import { trackerSuite } from "../support/tracker-suite";

// The action table on the embedded tracker (the shared server of the HTTP suite).
trackerSuite(() => ({ baseUrl: inject("baseUrl"), serverEnv: inject("serverEnv") }));
