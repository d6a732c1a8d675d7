import { describe, expect, it } from "vitest";
import { cloudModelId, isRegionalEndpoint } from "./cloud-model-ids.js";

describe("cloud model ids", () => {
  it("translates an Anthropic id of a known model into Bedrock's and Vertex's forms", () => {
    expect(cloudModelId("bedrock", "claude-haiku-4-5")).toBe("anthropic.claude-haiku-4-5-20251001-v1:0");
    expect(cloudModelId("bedrock", "claude-sonnet-4-5-20250929")).toBe("anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(cloudModelId("vertex", "claude-sonnet-4-5")).toBe("claude-sonnet-4-5@20250929");
    expect(cloudModelId("vertex", "claude-sonnet-4-0")).toBe("claude-sonnet-4@20250514");
    expect(cloudModelId("vertex", "claude-opus-4-1-20250805")).toBe("claude-opus-4-1@20250805");
  });

  it("gives a translated id the main model's inference profile, so the summary model runs where it does", () => {
    expect(cloudModelId("bedrock", "claude-haiku-4-5", "eu.anthropic.claude-sonnet-4-5-20250929-v1:0")).toBe(
      "eu.anthropic.claude-haiku-4-5-20251001-v1:0",
    );
    expect(cloudModelId("bedrock", "claude-haiku-4-5", "global.anthropic.claude-sonnet-4-5-20250929-v1:0")).toBe(
      "global.anthropic.claude-haiku-4-5-20251001-v1:0",
    );
  });

  it("keeps ids already in the provider's form, and cannot place an unknown Anthropic id on Bedrock", () => {
    const arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123";
    expect(cloudModelId("bedrock", arn)).toBe(arn);
    expect(cloudModelId("bedrock", "us.anthropic.claude-opus-4-5-20251101-v1:0")).toBe("us.anthropic.claude-opus-4-5-20251101-v1:0");
    expect(cloudModelId("bedrock", "claude-sonnet-5-5")).toBeNull();
    expect(cloudModelId("vertex", "claude-opus-4-6")).toBe("claude-opus-4-6");
    expect(cloudModelId("vertex", "anthropic.claude-haiku-4-5-20251001-v1:0")).toBeNull();
    expect(cloudModelId("anthropic", "claude-sonnet-5-5")).toBe("claude-sonnet-5-5");
  });

  it("knows the regional endpoints", () => {
    expect(isRegionalEndpoint("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "us-east-1")).toBe(true);
    expect(isRegionalEndpoint("bedrock", "global.anthropic.claude-sonnet-4-5-20250929-v1:0", "us-east-1")).toBe(false);
    expect(isRegionalEndpoint("vertex", "claude-sonnet-4-5@20250929", "europe-west1")).toBe(true);
    expect(isRegionalEndpoint("vertex", "claude-sonnet-4-5@20250929", "global")).toBe(false);
    expect(isRegionalEndpoint("anthropic", "claude-sonnet-4-5", "")).toBe(false);
  });
});
