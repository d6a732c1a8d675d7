import type { ZodType } from "zod";

export declare const BEGIN: string;
export declare const END: string;
export declare const CONFIG_DOC: string;
export declare function configRows(
  schema: ZodType,
): Array<{ key: string; env: string; type: string; default: string; description: string }>;
export declare function renderConfigTable(schema: ZodType): string;
export declare function updateConfigDoc(text: string, schema: ZodType): string;
