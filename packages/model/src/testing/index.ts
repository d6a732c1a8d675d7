export { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from "./fake-anthropic.js";
export {
  estimateTokens,
  fakeError,
  type FakeContent,
  type FakeErrorReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeReplyFn,
  type FakeUsage,
  type RecordedRequest,
} from "./fake-replies.js";
