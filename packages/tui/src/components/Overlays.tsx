import { Box, Text } from "ink";
import { commandName, shortId } from "@hatloop/core";
import { KEYS } from "./keys.js";
import { fit } from "./lines.js";
import { draftWindow, type Draft } from "./line-editor.js";
import { col } from "./theme.js";

/** The key table; framed when there is room, and never taller than `height` rows. */
export function HelpOverlay({ controls, width, height }: { controls: boolean; width: number; height: number }) {
  const keys = KEYS.filter((k) => !k.only || k.only === (controls ? "run" : "watch"));
  const framed = height >= keys.length + 4;
  const lines = keys.slice(0, Math.max(0, height - (framed ? 4 : 2)));
  return (
    <Box
      flexDirection="column"
      borderStyle={framed ? "round" : undefined}
      paddingX={framed ? 1 : 0}
      width={Math.min(width, 84)}
      height={Math.min(height, lines.length + (framed ? 4 : 2))}
      overflow="hidden"
    >
      <Text bold wrap="truncate-end">
        Keys {controls ? "" : "(watching: the loop runs elsewhere)"}
      </Text>
      {lines.map((k) => (
        <Text key={k.keys} wrap="truncate-end">
          <Text color={col("cyan")} bold>
            {k.keys.padEnd(14)}
          </Text>{" "}
          {k.does}
        </Text>
      ))}
      <Text color={col("gray")}>any key closes this help</Text>
    </Box>
  );
}

const HINT = " (Enter sends, Esc discards)";

/** The steering (or answer) draft, scrolled sideways so the cursor (and so the end one types at) is always visible. */
export function SteerInput({ draft, width, prompt }: { draft: Draft; width: number; prompt: string }) {
  const hint = width - prompt.length >= 30 + HINT.length ? HINT : "";
  const { before, at, after } = draftWindow(draft, width - prompt.length - hint.length - 1);
  return (
    <Text wrap="truncate-end">
      <Text color={col("blueBright")} bold>
        {prompt}
      </Text>
      {before}
      <Text inverse>{at}</Text>
      {after}
      <Text color={col("gray")}>{hint}</Text>
    </Text>
  );
}

/** The agent's question, while the run waits for its answer, and how to give it (the question is cut, the way to answer never). */
export function QuestionLine({
  question,
  sessionId,
  controls,
  width,
}: {
  question: string;
  sessionId: string;
  controls: boolean;
  width: number;
}) {
  const how = `  (${controls ? "a answers" : `answer with: ${commandName()} answer ${shortId(sessionId)} "..."`})`;
  return (
    <Text wrap="truncate-end">
      <Text color={col("magentaBright")} bold inverse>
        {" ? "}
      </Text>{" "}
      <Text bold>{fit(question.replace(/\s+/g, " "), width - 4 - how.length)}</Text>
      <Text color={col("gray")}>{how}</Text>
    </Text>
  );
}

export function QuitConfirm() {
  return (
    <Text color={col("yellow")} bold wrap="truncate-end">
      Quit? The loop stops now and pauses with a checkpoint (resume later). y / n
    </Text>
  );
}
