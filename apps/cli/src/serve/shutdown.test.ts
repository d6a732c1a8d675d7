import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { stopOnSignal } from "./shutdown.js";

// serve stops on a signal: it closes what it holds, and a close that hangs does not keep it running.

const never = () => new Promise<void>(() => {});

describe("stopping serve", () => {
  it("closes on the first SIGTERM and says it closed", async () => {
    const signals = new EventEmitter();
    let closed = false;
    const stopping = stopOnSignal(
      async () => {
        closed = true;
      },
      { signals },
    );
    signals.emit("SIGTERM");
    expect(await stopping).toBe("closed");
    expect(closed).toBe(true);
    expect(signals.listenerCount("SIGTERM") + signals.listenerCount("SIGINT")).toBe(0);
  });

  it("ends on a second signal while the close hangs", async () => {
    const signals = new EventEmitter();
    const stopping = stopOnSignal(never, { signals, graceMs: 60 * 60_000 });
    signals.emit("SIGINT");
    await new Promise((r) => setTimeout(r, 10));
    signals.emit("SIGINT");
    expect(await stopping).toBe("second signal");
  });

  it("ends when the close has not ended within the grace", async () => {
    const signals = new EventEmitter();
    const stopping = stopOnSignal(never, { signals, graceMs: 20 });
    signals.emit("SIGTERM");
    expect(await stopping).toBe("grace elapsed");
  });
});
