import type { MutantInfo } from "../../engine/types.js";
import { gaeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "maskedGae", mistake: "your advantages were normalised over padding too: the mean and variance must count only masked-in tokens" };
export const maskedGae = gaeVariant({ statsOverPadding: true });
