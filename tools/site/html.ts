/** HTML text helpers shared by the markdown renderer and the page layout. */

/** `s` safe as HTML text or a double-quoted attribute: & < > " escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
