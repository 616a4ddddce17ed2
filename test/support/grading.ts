/** Connects the course's grader to lib/resolver.ts in a test process, as every course command does (runCommand). */
import { connectGrading } from "../../lib/resolver.js";

connectGrading(new URL("../../tools/loop/resolver-grading.ts", import.meta.url).href);
