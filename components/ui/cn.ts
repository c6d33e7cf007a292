import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names; a later Tailwind utility wins over an earlier one of the same property. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
