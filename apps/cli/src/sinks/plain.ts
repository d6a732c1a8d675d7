import { describeEvent, type EventSink, type LoopEvent } from "@hatloop/core";

// One plain line per event, for pipes, CI and logs: no colours, no cursor movement. Streamed model
// text is printed line by line as lines complete. The context gauge prints when its zone changes.

export function plainSink(write: (line: string) => void): EventSink {
  let partial = "";
  let zone = "green";
  const flushText = () => {
    if (partial.trim()) write(`   | ${partial}`);
    partial = "";
  };
  return (event: LoopEvent) => {
    if (event.type === "model.text") {
      const lines = (partial + event.data.text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) write(`   | ${line}`);
      return;
    }
    flushText();
    if (event.type === "context.gauge") {
      if (event.data.zone === zone) return;
      zone = event.data.zone;
    }
    const line = describeEvent(event);
    if (line !== null) write(line);
  };
}
