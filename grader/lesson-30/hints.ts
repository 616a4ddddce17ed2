/** Hints for lesson 30 (proximal approximation and staleness): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-30",
  functions: {
    proxLogpApproximations: {
      nudge:
        "You know the token's log-probability at two versions: v_b (when it was generated) and v_θ (now). The proximal policy is assumed to sit one version behind v_θ. " +
        "What fraction of the way from v_b to v_θ is that, and for which tokens is there no way to go at all?",
      keyIdea:
        "α = (v_prox − v_b)/(v_θ − v_b) with v_prox = currentVersion − 1, clamped to [0, 1]; α = 0 where v_θ − v_b ≤ 0 (no division by zero) and where v_b < 0 (prompt tokens; version 0 is a real policy, so test ≥ 0). " +
        "Step from the behaviour end towards the current one: old + α·(logprobs − old). linear mixes probabilities, not log-probs, adds 1e-10, then takes the log. rollout is a copy of old (a clone), never the input tensor itself. " +
        "TensorFlow.js traps: versions is int32, and dividing two int32 tensors floor-divides, so cast versions to float32 first. " +
        "a where computes both branches, so replace the zero denominators (say by 1) before dividing rather than relying on where to hide an Inf or NaN.",
      formula:
        "α = clamp((v_prox − v_b)/(v_θ − v_b), 0, 1) with v_prox = v_θ − 1, where v_θ − v_b > 0 and v_b ≥ 0, else 0 (α → 1 as the token gets staler);  loglinear = old + α·(logprobs − old);  " +
        "linear = log((1 − α)·e^old + α·e^logprobs + 1e-10);  rollout = old. " +
        "AReaL: areal/trainer/ppo/actor.py:629-684 @ 4aef98d8.",
    },
    stalenessStats: {
      nudge:
        "Which tokens have a staleness at all? Think about padding, and about prompt tokens whose version is −1 even where the mask is true.",
      keyIdea:
        "Count a token only when the mask is true AND its version is ≥ 0; the mean divides by that count, not by the mask's sum. " +
        "Proximal staleness is measured from currentVersion − 1, theta staleness from currentVersion, so theta = proximal + 1 and a token of the current version is −1 behind the proximal policy. " +
        "Return null, not zeros, when no token counts. Results are plain numbers: reading versions and mask with dataSync() and looping is the simplest way.",
      formula:
        "over {mask ∧ v_b ≥ 0}: proximal = (v_θ − 1) − v_b, theta = v_θ − v_b, each summarised as { avg, max, min };  validTokens = the count;  null when the count is 0. " +
        "AReaL: areal/trainer/ppo/actor.py:1081-1108 and 889-904 @ 4aef98d8.",
    },
    mismatchKl: {
      nudge:
        "The tokens were sampled by the inference engine. With r = π_train/π_behave per token, which three functions of log r does AReaL log, and over which tokens is each averaged?",
      keyIdea:
        "x = logprobs − oldLogp on each valid token (mask true). direct = −x, taylor = x²/2, dual = e^x − 1 − x (never negative). Each is a plain mean over the valid tokens; " +
        "with none, return null (AReaL's stats tracker logs nothing when the denominator is empty). Reading the tensors with dataSync() and looping is the simplest way.",
      formula:
        "n = Σ mask;  direct = Σ_mask(−x)/n,  taylor = Σ_mask(x²/2)/n,  dual = Σ_mask(e^x − 1 − x)/n,  x = logprobs − oldLogp;  null when n = 0. " +
        "AReaL: areal/trainer/ppo/actor.py:1045-1062 and areal/utils/stats_tracker.py:244-261 @ 4aef98d8.",
    },
    resolveLogps: {
      nudge:
        "Two questions, in order: which tensor becomes old_logp when the advantages are computed, and then which tensor the loss takes its ratio against. When is a forward pass needed to have the second?",
      keyIdea:
        "A forward pass is needed for the decoupled loss unless the method is loglinear, and for the coupled loss only with recompute_logprob. " +
        "Coupled + recompute: behave = proximal = the recomputed log-probs (missing → AReaL's recompute_logprob error). Coupled otherwise: both are the engine's. " +
        "Decoupled: behave = the engine's; proximal = the recomputed ones when present; absent, only loglinear may approximate it from versions (lesson 30's loglinear), otherwise raise. " +
        "Check the method name first, and refuse a proximal tensor with NaN or ±Inf. Return clones.",
      formula:
        "needs = (decoupled ∧ method ≠ loglinear) ∨ (¬decoupled ∧ recompute);  coupled: proximal = behave = (recompute ? recomputed : inference);  " +
        "decoupled: behave = inference, proximal = recomputed ?? (loglinear ∧ versions ∧ currentVersion ? old + α(logprobs − old) : error). " +
        "AReaL: areal/api/cli_args.py:1534-1545, areal/trainer/ppo/actor.py:178-191, 716-766 @ 4aef98d8.",
    },
  },
};

export default hints;
