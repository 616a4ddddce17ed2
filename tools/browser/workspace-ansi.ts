/**
 * The terminal's report as HTML: the ANSI colour codes chalk writes (bold, dim, red, green,
 * yellow, cyan; level 1) become <span class="ansi-…"> elements, and the text is escaped, so that
 * the workspace page shows the very text `npm run grade` prints, coloured as a terminal shows it.
 */

/** SGR code → the class it turns on (or, for a reset code, the classes it turns off). */
const ON: Record<number, string> = { 1: "ansi-bold", 2: "ansi-dim", 31: "ansi-red", 32: "ansi-green", 33: "ansi-yellow", 36: "ansi-cyan", 90: "ansi-dim" };
const OFF: Record<number, readonly string[]> = { 22: ["ansi-bold", "ansi-dim"], 39: ["ansi-red", "ansi-green", "ansi-yellow", "ansi-cyan", "ansi-dim"] };

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** `text` with its ANSI SGR codes as spans (unknown codes dropped), everything else escaped. */
export function ansiToHtml(text: string): string {
  let active: string[] = [];
  let out = "";
  let open = false;
  for (const part of text.split(/(\x1b\[[0-9;]*m)/)) {
    const m = /^\x1b\[([0-9;]*)m$/.exec(part);
    if (!m) {
      if (part === "") continue;
      if (!open && active.length > 0) {
        out += `<span class="${active.join(" ")}">`;
        open = true;
      }
      out += escape(part);
      continue;
    }
    if (open) {
      out += "</span>";
      open = false;
    }
    for (const code of (m[1] || "0").split(";").map(Number)) {
      if (code === 0) active = [];
      else if (ON[code] && !active.includes(ON[code])) active = [...active, ON[code]];
      else if (OFF[code]) active = active.filter((c) => !OFF[code].includes(c));
    }
  }
  return open ? `${out}</span>` : out;
}
