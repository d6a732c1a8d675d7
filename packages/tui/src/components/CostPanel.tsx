import { Box, Text } from "ink";
import { shortId } from "@hatloop/core";
import { costLines, type CostFigures } from "./cost-lines.js";
import { fit } from "./lines.js";
import { col } from "./theme.js";

const LABEL = 13;

/** The cost panel: spent against the budget, burn rate, projection, tokens by kind. */
export function CostPanel({
  sessionId,
  figures,
  width,
  height,
}: {
  sessionId: string;
  figures: CostFigures;
  width: number;
  height: number;
}) {
  const lines = costLines(figures);
  const [spent, rate, projection] = lines.slice(0, 3);
  const kinds = lines.slice(3);
  const row = ([label, text]: [string, string], key: string, color?: string) => (
    <Text key={key} wrap="truncate-end" color={color}>
      {fit(`  ${label.padEnd(LABEL)} ${text}`, width)}
    </Text>
  );
  const over = figures.maxCostUsd !== null && figures.costUsd >= figures.maxCostUsd;
  const near = figures.maxCostUsd !== null && figures.costUsd >= 0.8 * figures.maxCostUsd;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold inverse>
        {fit(` cost of session ${shortId(sessionId)} `, width)}
      </Text>
      {row(spent!, "spent", over ? col("red") : near ? col("yellow") : undefined)}
      {row(rate!, "rate")}
      {row(projection!, "projection")}
      <Text> </Text>
      <Text bold>{fit(`  ${"tokens".padEnd(LABEL)} ${"".padStart(7)}  share`, width)}</Text>
      {kinds.map((k) => row(k, k[0]))}
    </Box>
  );
}
