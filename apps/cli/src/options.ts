import { InvalidArgumentError } from "commander";

/** Commander parser for a positive whole number; anything else is a usage error. */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError("expected a positive whole number");
  return Number(value);
}

/** Commander parser for a positive amount such as 2.50. */
export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new InvalidArgumentError("expected a positive number");
  return n;
}
