// Every tool is defined the one way the loop's own tools are too: @hatloop/core's defineTool.
export { defineTool, failure, success } from "@hatloop/core";
