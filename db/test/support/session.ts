// The session fixture of the store contract (core's test support), for the db tests outside it.
export { newSession } from "../../../packages/core/src/test-support/store-contract.js";
