// A task's acceptance criteria: the list items (or, with none, the paragraphs) under a Markdown
// heading named "Acceptance criteria", "Done when" or "Definition of done", up to the next heading of
// the same or a higher level. `--criteria FILE` appends the file under that heading (withCriteria),
// so the worker reads the criteria with the task and a resumed or queued session keeps them.

const CRITERIA_HEADING = "## Acceptance criteria";

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const NAMES = /^(acceptance criteria|done when|definition of done)\s*:?$/i;
const ITEM = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;

/** The task with a criteria file's text appended under CRITERIA_HEADING. */
export function withCriteria(task: string, criteria: string): string {
  return `${task.trimEnd()}\n\n${CRITERIA_HEADING}\n\n${criteria.trim()}\n`;
}

/** The acceptance criteria of a task, in order; none when it has no such section. */
export function acceptanceCriteria(task: string): string[] {
  const criteria: string[] = [];
  let level = 0; // the level of the criteria heading being read; 0: outside one
  let section: string[] = [];
  const close = () => {
    criteria.push(...itemsOf(section));
    section = [];
  };
  for (const line of task.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      const depth = heading[1]!.length;
      if (level && depth <= level) {
        close();
        level = 0;
      }
      if (!level && NAMES.test(heading[2]!)) level = depth;
      continue;
    }
    if (level) section.push(line);
  }
  if (level) close();
  return criteria;
}

/** List items (a continuation line joins its item), else the section's paragraphs. */
function itemsOf(lines: string[]): string[] {
  const items: string[] = [];
  let listed = false;
  let paragraph: string[] = [];
  const paragraphs: string[] = [];
  for (const line of lines) {
    const item = ITEM.exec(line);
    if (item) {
      listed = true;
      items.push(item[1]!.trim());
    } else if (line.trim() === "") {
      if (paragraph.length) paragraphs.push(paragraph.join(" "));
      paragraph = [];
    } else if (listed && /^\s/.test(line) && items.length) {
      items[items.length - 1] = `${items.at(-1)} ${line.trim()}`;
    } else {
      paragraph.push(line.trim());
    }
  }
  if (paragraph.length) paragraphs.push(paragraph.join(" "));
  return (listed ? items : paragraphs).filter((c) => c.length > 0);
}
