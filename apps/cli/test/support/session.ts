// The session fixture of the store contract (core's test support), for tests that write rows directly.
export { newSession } from "../../../../packages/core/src/test-support/store-contract.js";
