/**
 * The language the learner's commands speak (issue 28): "zh" prints the grader's report, hints
 * and the CLI's messages in Chinese; "en" (the default) keeps every output byte-identical to the
 * English edition.
 *
 * Rules, first match wins:
 *   1. COURSE_LANG set (non-empty): "en" or "zh" (case-insensitive, surrounding spaces ignored)
 *      chooses; any other value means English (the CLI warns once on stderr — see
 *      `courseLangWarning`; this module never prints).
 *   2. else the POSIX locale: the first non-empty of LC_ALL, LC_MESSAGES, LANG that starts with
 *      "zh" (zh_CN.UTF-8, zh_TW, zh-Hans…) → "zh".
 *   3. else "en".
 *
 * lib/ imports nothing from grader/ or tools/.
 */
export type CourseLang = "en" | "zh";

type Env = Record<string, string | undefined>;

export function courseLang(env: Env = process.env): CourseLang {
  const chosen = env.COURSE_LANG?.trim().toLowerCase();
  if (chosen) return chosen === "zh" ? "zh" : "en";
  // POSIX precedence: LC_ALL overrides LC_MESSAGES, which overrides LANG.
  for (const name of ["LC_ALL", "LC_MESSAGES", "LANG"] as const) {
    const value = env[name]?.trim();
    if (value) return value.toLowerCase().startsWith("zh") ? "zh" : "en";
  }
  return "en";
}

/**
 * The one warning line a CLI prints on stderr when COURSE_LANG holds a value other than en or zh
 * (undefined when there is nothing to warn about). The CLI prints it; lib/ stays silent.
 */
export function courseLangWarning(env: Env = process.env): string | undefined {
  const raw = env.COURSE_LANG;
  const chosen = raw?.trim().toLowerCase();
  if (!chosen || chosen === "en" || chosen === "zh") return undefined;
  return `COURSE_LANG=${raw} is not a language this course speaks (use en or zh); using English.`;
}
