/** Where the server's checkpoints live. */
import { fileURLToPath } from "node:url";

/** The course's small chat checkpoint (tools/serve/make-tiny-chat.ts), served when no --checkpoint is given. */
export const TINY_CHAT_CHECKPOINT = fileURLToPath(new URL("../../datasets/checkpoints/tiny-chat.safetensors", import.meta.url));
