/** Every lesson figure, in lesson order. `npm run lab figures` writes them to lessons/figures/. */
import type { Figure } from "./figure.js";
import { figures as lesson01 } from "../lesson-1/figure.js";
import { figures as lesson02 } from "../lesson-2/figure.js";
import { figures as lesson03 } from "../lesson-3/figure.js";
import { figures as lesson04 } from "../lesson-4/figure.js";
import { figures as lesson05 } from "../lesson-5/figure.js";
import { figures as lesson06 } from "../lesson-6/figure.js";
import { figures as lesson07 } from "../lesson-7/figure.js";
import { figures as lesson08 } from "../lesson-8/figure.js";
import { figures as lesson09 } from "../lesson-9/figure.js";
import { figures as lesson10 } from "../lesson-10/figure.js";
import { figures as lesson11 } from "../lesson-11/figure.js";
import { figures as lesson12 } from "../lesson-12/figure.js";
import { figures as lesson13 } from "../lesson-13/figure.js";
import { figures as lesson14 } from "../lesson-14/figure.js";
import { figures as lesson15 } from "../lesson-15/figure.js";
import { figures as lesson16 } from "../lesson-16/figure.js";
import { figures as lesson17 } from "../lesson-17/figure.js";
import { figures as lesson18 } from "../lesson-18/figure.js";
import { figures as lesson19 } from "../lesson-19/figure.js";
import { figures as lesson20 } from "../lesson-20/figure.js";
import { figures as lesson21 } from "../lesson-21/figure.js";
import { figures as lesson22 } from "../lesson-22/figure.js";
import { figures as lesson23 } from "../lesson-23/figure.js";
import { figures as lesson24 } from "../lesson-24/figure.js";
import { figures as lesson25 } from "../lesson-25/figure.js";
import { figures as lesson26 } from "../lesson-26/figure.js";
import { figures as lesson27 } from "../lesson-27/figure.js";
import { figures as lesson28 } from "../lesson-28/figure.js";
import { figures as lesson29 } from "../lesson-29/figure.js";
import { figures as lesson30 } from "../lesson-30/figure.js";
import { figures as lesson31 } from "../lesson-31/figure.js";
import { figures as lesson32 } from "../lesson-32/figure.js";
import { figures as lesson33 } from "../lesson-33/figure.js";
import { figures as lesson34 } from "../lesson-34/figure.js";

export const FIGURES: Figure[] = [
  ...lesson01, ...lesson02, ...lesson03, ...lesson04, ...lesson05, ...lesson06, ...lesson07, ...lesson08, ...lesson09, ...lesson10, ...lesson11, ...lesson12, ...lesson13, ...lesson14, ...lesson15,
  ...lesson16, ...lesson17, ...lesson18, ...lesson19, ...lesson20, ...lesson21, ...lesson22, ...lesson23, ...lesson24, ...lesson25, ...lesson26, ...lesson27, ...lesson28,
  ...lesson29, ...lesson30, ...lesson31, ...lesson32, ...lesson33, ...lesson34,
];
