/**
 * Other functions a grader needs to build a case's inputs: lesson 12's rope table (lessons 11 and
 * 12 build cos/sin tables and models with it). Graders call them through this object, never by
 * importing solutions/ themselves, so that `npm run release` can replace this one file in a student
 * edition with the results recorded from the reference (grader/engine/replay.ts), and no solution
 * ships with the edition.
 */
import { ropeFrequencies } from "../../solutions/lesson-12/rope.js";

export const deps = { ropeFrequencies };
