// The detail pane's frame: beside the waterfall and sticky from lg, below it on smaller screens.
export const DETAIL_PANE =
  "grid min-w-0 content-start gap-3 rounded-xl border bg-card p-4 lg:sticky lg:top-4 lg:max-h-[calc(100dvh-2rem)] lg:overflow-y-auto";
