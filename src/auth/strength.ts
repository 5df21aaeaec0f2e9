/**
 * Password strength label (docs/auth.md#results-and-errors): "weak", "fair" or "strong", from the
 * zxcvbn estimator (pattern matching against common passwords, names, words, keyboard walks,
 * dates and l33t), not from counting character classes.
 *
 * Mapping of zxcvbn's score (log10 of the estimated guesses):
 *   score 0-1 (< 10^6 guesses)          -> "weak"
 *   score 2-3 (10^6 .. 10^10 guesses)   -> "fair"
 *   score 4   (>= 10^10 guesses)        -> "strong"
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";
import { ok, type Result } from "../result.ts";
import { expectString } from "./boundary.ts";

/** `passwordStrength`'s verdict. */
export type StrengthLabel = "weak" | "fair" | "strong";

/** zxcvbn's cost grows with length; past this many characters only the prefix is analysed. */
const ANALYSED_LENGTH = 100;

let estimator: ZxcvbnFactory | undefined;

/** The dictionaries are large, so the estimator is built on first use, not at import. */
function getEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    maxLength: ANALYSED_LENGTH,
  });
  return estimator;
}

/** The label of a zxcvbn score (0 to 4): 4 is strong, 2 and 3 fair, below weak. */
export function labelForScore(score: number): StrengthLabel {
  return score >= 4 ? "strong" : score >= 2 ? "fair" : "weak";
}

/**
 * How hard a password is to guess, estimated by zxcvbn on its first characters: "weak", "fair" or
 * "strong" (docs/auth.md#passwords).
 *
 * @returns Ok with the label, or Err `invalid_argument` when `password` is not a string
 *
 * @example
 * ```ts
 * import { Auth } from "svc-live";
 *
 * const strength = Auth.passwordStrength("password123");
 * if (strength.ok && strength.value === "weak") console.log("choose a longer password, or a phrase of several words");
 * ```
 */
export function passwordStrength(password: string): Result<StrengthLabel> {
  const checked = expectString("passwordStrength", password);
  if (!checked.ok) return checked;
  return ok(labelForScore(getEstimator().check(checked.value.slice(0, ANALYSED_LENGTH)).score));
}
