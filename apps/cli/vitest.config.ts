import { sharedConfig } from "../../vitest.shared.js";

// Each end-to-end file starts from fresh modules: its time goes to the processes it starts, so sharing
// modules between files would save little here.
export default sharedConfig({ isolate: true });
