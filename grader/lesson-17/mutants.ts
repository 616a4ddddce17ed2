/**
 * Lesson 17's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { loadStateDictVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "loadStateDict",
    name: "aliases-inputs",
    mistake: "the result holds the input tensors themselves: return new tensors (tf.clone, tf.cast), so that disposing the checkpoint or the old model does not free the new weights",
    fn: loadStateDictVariant({ aliasesInputs: true }),
  },
  {
    exercise: "loadStateDict",
    name: "checkpoint-order",
    mistake: "`weights` follows the checkpoint's order: list the model's parameters in the model's order, whatever order the checkpoint was written in",
    fn: loadStateDictVariant({ stateDictOrder: true }),
  },
  {
    exercise: "loadStateDict",
    name: "mismatch-skipped",
    mistake: "a parameter whose shape differs was skipped; PyTorch raises a size-mismatch error for it even when strict is false, naming the tensor",
    fn: loadStateDictVariant({ mismatchSkipped: true }),
  },
  {
    exercise: "loadStateDict",
    name: "missing-zeroed",
    mistake: "a missing parameter was set to zeros; it keeps the value the freshly built model gave it",
    fn: loadStateDictVariant({ missingZeroed: true }),
  },
  {
    exercise: "loadStateDict",
    name: "no-cast",
    mistake: "the loaded tensors keep the checkpoint's dtype (MiniMind saves float16): cast them to float32, the model's dtype",
    fn: loadStateDictVariant({ noCast: true }),
  },
  {
    exercise: "loadStateDict",
    name: "state-dict-entries",
    mistake: "`weights` was built from the checkpoint, so it holds the checkpoint's unexpected entries (a `module.…` name) and follows its order: return exactly the model's parameters, in the model's order",
    fn: loadStateDictVariant({ stateDictEntries: true }),
  },
  {
    exercise: "loadStateDict",
    name: "strict-before-shapes",
    mistake: "the strict key check runs before the shape check, so a checkpoint with both problems is reported by its missing keys only: check shapes first, strict or not",
    fn: loadStateDictVariant({ strictBeforeShapes: true }),
  },
  {
    exercise: "loadStateDict",
    name: "strict-ignored",
    mistake: "strict was ignored; with strict = true, any missing or unexpected key is an error that names them",
    fn: loadStateDictVariant({ strictIgnored: true }),
  },
  {
    exercise: "loadStateDict",
    name: "strict-names-missing-only",
    mistake: "the strict error lists only the missing keys: name the unexpected ones as well, as load_state_dict does",
    fn: loadStateDictVariant({ strictNamesMissingOnly: true }),
  },
  {
    exercise: "loadStateDict",
    name: "strip-module-prefix",
    mistake: "\"module.\" was stripped from the checkpoint's names; load_state_dict matches names exactly, which is why MiniMind saves the unwrapped model (raw_model) in the first place",
    fn: loadStateDictVariant({ stripModulePrefix: true }),
  },
  {
    exercise: "loadStateDict",
    name: "swapped-lists",
    mistake: "missing and unexpected are swapped: missing = the model's names the checkpoint lacks, unexpected = the checkpoint's names the model lacks",
    fn: loadStateDictVariant({ swappedLists: true }),
  },
];
