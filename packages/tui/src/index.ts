export { createTuiStore, type TuiStore } from "./state/store.js";
export { initialState } from "./state/initial.js";
export { applyEvent, MAX_ENTRIES } from "./state/reduce.js";
export type { ActivityEntry, Snapshot, TuiState } from "./state/types.js";
export { SessionView, type LoopControls, type SessionViewProps } from "./views/SessionView.js";
export { SessionList, type ListChoice, type ListRow } from "./views/SessionList.js";
export { mountSession, chooseSession, type MountedView } from "./render.js";
export { measureTui, type TuiMeasurement } from "./perf/measure.js";
