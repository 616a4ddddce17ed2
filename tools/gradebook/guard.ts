/**
 * Imported first by the gradebook's processes (cli.ts, worker.ts), so that it runs before any other
 * module: from here on, a SIGUSR1 (which opens Node's inspector, and with it this process, to
 * whoever can connect) is caught and ignored.
 */
import { guardInspectorSignal } from "../../grader/engine/sandbox.js";

guardInspectorSignal();
