/**
 * Why WebGPU does not start in Debian's Chromium on SwiftShader (no GPU), each measured here and
 * documented in docs/BROWSER.md: its read-back gives zeros (synchronously always; in a loaded CI run
 * asynchronously too); with other Chromiums busy on the GPU process, no adapter at all; and in a loaded
 * CI run (2026-12-03) Dawn refused the probe's first upload, a 48×48 float32 buffer (9,216 bytes)
 * mapped at creation, on both tries. Used by the tests that probe the browser backends.
 */
export const WEBGPU_NOT_HERE =
  /read back with data(Sync)?\(\) gave 0 instead of 96|WebGPU found no adapter|createBuffer failed, size \(\d+\) is too large for the implementation when mappedAtCreation == true/;
