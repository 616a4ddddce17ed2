/**
 * The site's two languages: the words its pages add around the lessons (index, exercises,
 * solutions, switch), in English and in Chinese. English pages sit at the site's root; Chinese
 * pages, rendered from lessons/zh/, in zh/ with the same file names.
 */
import type { CourseModule, LessonInfo } from "../../lib/catalog.js";
import { MODULE_TITLES, MODULE_TITLES_ZH } from "../../lib/catalog.js";

/** A language the site is built in. */
export type SiteLang = "en" | "zh";

/** The folder of a language's pages inside the site ("" for English, "zh/" for Chinese). */
export const LANG_DIR: Record<SiteLang, string> = { en: "", zh: "zh/" };

/** The words a page of `lang` adds around a lesson's text. */
export interface SiteWords {
  /** `<html lang>`. */
  htmlLang: "en" | "zh-CN";
  indexTitle: string;
  intro: (description: string) => string;
  moduleTitle: (m: CourseModule) => string;
  comingSoon: string;
  exercises: (n: number) => string;
  lessonTitle: (lesson: LessonInfo, title: string) => string;
  exercisesHeading: string;
  exercisesIn: (path: string) => string;
  commands: string;
  solutionHeading: string;
  solutionIntro: string;
  /** The other language's switch label, and what the switch says when the other version does not exist yet. */
  switchLabel: string;
  switchMissing: string;
}

const ZH_DESCRIPTION = "用 TypeScript 从头到尾训练并后训练一个小型大语言模型：逐课跟随 MiniMind，再学习 AReaL 的生产级强化学习技术。";

/** The words of each language's pages. */
export const WORDS: Record<SiteLang, SiteWords> = {
  en: {
    htmlLang: "en",
    indexTitle: "Lessons",
    intro: (description) =>
      `<p>${description}</p>\n<p>Each lesson explains one idea, cites the MiniMind or AReaL lines it mirrors, and ends with exercises you grade locally: <code>npm run grade lesson-NN</code>.</p>`,
    moduleTitle: (m) => MODULE_TITLES[m],
    comingSoon: "coming soon",
    exercises: (n) => `${n} exercise${n === 1 ? "" : "s"}`,
    lessonTitle: (lesson) => `Lesson ${lesson.number} · ${lesson.title}`,
    exercisesHeading: "Exercises in code",
    exercisesIn: (path) => `In <code>${path}</code>:`,
    commands: "Commands",
    solutionHeading: "Reference solution",
    solutionIntro: "Try the exercises first: the grader and the hints are there to help.",
    // The English page's switch leads to the Chinese version, so it speaks Chinese.
    switchLabel: "中文",
    switchMissing: "中文版尚未完成",
  },
  zh: {
    htmlLang: "zh-CN",
    indexTitle: "课程目录",
    intro: () =>
      `<p>${ZH_DESCRIPTION}</p>\n<p>每一课讲清一个概念，引用它所对应的 MiniMind 或 AReaL 源码行，最后是在本地评分的练习：<code>npm run grade lesson-NN</code>。设置 <code>COURSE_LANG=zh</code>，评分报告和提示也会用中文显示。尚未翻译的课程链接到英文版。</p>`,
    moduleTitle: (m) => MODULE_TITLES_ZH[m],
    comingSoon: "即将推出",
    exercises: (n) => `${n} 个练习`,
    lessonTitle: (lesson, title) => `第 ${lesson.number} 课 · ${title}`,
    exercisesHeading: "代码练习",
    exercisesIn: (path) => `位于 <code>${path}</code>：`,
    commands: "命令",
    solutionHeading: "参考答案",
    solutionIntro: "请先自己完成练习：评分器和提示都能帮你。",
    switchLabel: "English",
    switchMissing: "No English version",
  },
};

/** A Chinese lesson's title from its level-1 heading: "第 23 课 — PPO 全流程" gives "PPO 全流程". */
export function titleFromHeading(heading: string | undefined, fallback: string): string {
  const title = (heading ?? "").replace(/^(?:第\s*\d+\s*课|Lesson\s+\d+)\s*[—–:：-]\s*/, "").trim();
  return title || fallback;
}

/** Notes beside a lesson in the Chinese index that only has an English page. */
export const ENGLISH_ONLY_ZH = "英文版，中文翻译中";
