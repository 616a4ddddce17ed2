/** Every lesson figure, in lesson order. `npm run lab figures` writes them to lessons/figures/. */
import type { Figure } from "./figure.js";
import { figures as lesson10 } from "./lesson-10.js";
import { figures as lesson11 } from "./lesson-11.js";
import { figures as lesson12 } from "./lesson-12.js";
import { figures as lesson13 } from "./lesson-13.js";
import { figures as lesson23 } from "./lesson-23.js";

export const FIGURES: Figure[] = [...lesson10, ...lesson11, ...lesson12, ...lesson13, ...lesson23].sort((a, b) => a.lesson - b.lesson || a.file.localeCompare(b.file));
