import type { ModelStreamEvent } from "@hatloop/core";

// The SDK prints some warnings with console.warn on every request (a deprecated model id, a
// deprecated thinking mode), straight into the user's terminal and over the TUI. They are said
// synchronously while a request is built, so capturing console.warn for that one call catches
// them and nothing else; each distinct one becomes a single `notice` event for this client.

export class SdkNotices {
  private readonly said = new Set<string>();

  capture<T>(build: () => T, onEvent: ((event: ModelStreamEvent) => void) | undefined): T {
    const heard: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void heard.push(args.map(String).join(" "));
    try {
      return build();
    } finally {
      console.warn = original;
      for (const text of heard) {
        const message = text.replace(/\s*\n\s*/g, " ").trim();
        if (this.said.has(message)) continue;
        this.said.add(message);
        onEvent?.({ type: "notice", message });
      }
    }
  }
}
