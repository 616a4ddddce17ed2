/**
 * The two pinned source repositories the course cites, and the URL of a cited line range there:
 * `trainer/train_ppo.py:139-150` @ d65ef2c becomes a link to those lines at that commit.
 */
export interface PinnedSource {
  repo: string;
  commit: string;
}

export const PINNED_SOURCES: readonly PinnedSource[] = [
  { repo: "jingyaogong/minimind", commit: "d65ef2c00ebc6082f9df11541e1b191655eddb00" },
  { repo: "inclusionAI/AReaL", commit: "4aef98d8d818af55b43621aaadba047ae10f4e77" },
];

const CITATION = /^([\w./-]+\.\w+):(\d+)(?:-(\d+))?$/;

/** The GitHub URL of a citation such as "trainer/train_ppo.py:139-150" at an abbreviated pinned commit; undefined otherwise. */
export function citationUrl(citation: string, commit: string): string | undefined {
  const source = PINNED_SOURCES.find((s) => commit.length >= 7 && s.commit.startsWith(commit));
  const m = CITATION.exec(citation.trim());
  if (!source || !m) return undefined;
  const [, file, from, to] = m;
  return `https://github.com/${source.repo}/blob/${source.commit}/${file}#L${from}${to ? `-L${to}` : ""}`;
}
