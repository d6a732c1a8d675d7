// The seven sections of the structured summary (docs/design/summaries.md), shared by the prompt and the parser so the
// two cannot drift apart.

export const SUMMARY_SECTIONS = [
  { title: "User Intent", ask: "All goals and requests from the user" },
  { title: "Technical Context", ask: "Tools, methods, patterns discovered" },
  { title: "Files & Code", ask: "Files viewed/edited, significant code changes" },
  { title: "Errors & Fixes", ask: "Problems encountered and how they were resolved" },
  { title: "Key Decisions", ask: "Important choices made and rationale" },
  { title: "Pending Tasks", ask: "Unfinished work items" },
  { title: "Current State", ask: "Where work left off, what's next" },
] as const;
