export { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from "./fake-anthropic.js";
export { startFakeBedrock } from "./fake-bedrock.js";
export { startFakeVertex } from "./fake-vertex.js";
export type { FakeCloud } from "./cloud-front.js";
export {
  estimateTokens,
  fakeError,
  type FakeContent,
  type FakeErrorReply,
  type FakeMessageReply,
  type FakeRawReply,
  type FakeReply,
  type FakeReplyFn,
  type FakeUsage,
  type RecordedRequest,
} from "./fake-replies.js";
export { requestProblems, type RuleOptions, type WireRequest } from "../request-rules/validate-request.js";
