// The chat page of `npm run serve`: sends the conversation to /v1/chat/completions with
// stream: true and draws the server-sent deltas as they arrive: thinking (reasoning_content) in a
// fold that the "show thinking" box hides, the answer (content), and tool calls as cards.
"use strict";

const $ = (id) => document.getElementById(id);
const log = $("log");
const history = [];
let modelId = null;
let demoTools = [];
let controller = null;

async function init() {
  try {
    const models = await (await fetch("/v1/models")).json();
    modelId = models.data[0].id;
    $("model").textContent = `model: ${modelId}`;
    demoTools = (await (await fetch("/v1/demo-tools")).json()).tools;
  } catch (err) {
    $("model").textContent = `cannot reach the server: ${err.message}`;
  }
}

function bubble(role) {
  const div = document.createElement("div");
  div.className = `msg ${role}`;
  log.appendChild(div);
  return div;
}

function toolCard(call) {
  const card = document.createElement("div");
  card.className = "tool-card";
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = `${call.function.name}`;
  const args = document.createElement("span");
  args.className = "args";
  args.textContent = `(${call.function.arguments})`;
  card.append("tool call: ", name, args);
  return card;
}

/** Reads a text/event-stream body and calls onEvent with each `data:` payload. */
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      for (const line of event.split("\n")) if (line.startsWith("data: ")) onEvent(line.slice(6));
    }
  }
}

async function send(text) {
  history.push({ role: "user", content: text });
  bubble("user").textContent = text;
  const out = bubble("assistant");
  const thinking = document.createElement("details");
  thinking.className = "thinking";
  thinking.open = true;
  const summary = document.createElement("summary");
  summary.textContent = "thinking";
  const thought = document.createElement("div");
  thinking.append(summary, thought);
  const answer = document.createElement("div");
  answer.className = "answer";
  const meta = document.createElement("div");
  meta.className = "meta";
  out.append(answer, meta);
  const reply = { role: "assistant", content: "", reasoning_content: "", tool_calls: [] };
  const body = {
    model: modelId,
    messages: history,
    stream: true,
    stream_options: { include_usage: true },
    temperature: Number($("temperature").value),
    max_tokens: Number($("max-tokens").value),
    open_thinking: $("open-thinking").checked,
  };
  if ($("offer-tools").checked) body.tools = demoTools;
  controller = new AbortController();
  $("send").hidden = true;
  $("stop").hidden = false;
  const started = performance.now();
  let firstToken = null;
  try {
    const response = await fetch("/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: controller.signal });
    if (!response.ok) {
      const err = await response.json();
      throw new Error(`${response.status}: ${err.error?.message ?? response.statusText}`);
    }
    await readEvents(response, (data) => {
      if (data === "[DONE]") return;
      const chunk = JSON.parse(data);
      if (chunk.error) throw new Error(chunk.error.message);
      if (chunk.usage) meta.textContent += ` · ${chunk.usage.prompt_tokens} prompt + ${chunk.usage.completion_tokens} generated tokens`;
      const choice = chunk.choices[0];
      if (!choice) return;
      const d = choice.delta;
      if ((d.reasoning_content || d.content) && firstToken === null) firstToken = performance.now() - started;
      if (d.reasoning_content) {
        if (!thinking.isConnected) out.insertBefore(thinking, answer);
        thought.textContent += d.reasoning_content;
        reply.reasoning_content += d.reasoning_content;
      }
      if (d.content) {
        answer.textContent += d.content;
        reply.content += d.content;
      }
      for (const call of d.tool_calls ?? []) {
        out.insertBefore(toolCard(call), meta);
        reply.tool_calls.push(call);
      }
      if (choice.finish_reason) meta.textContent = `finished: ${choice.finish_reason}` + (firstToken !== null ? ` · first token after ${Math.round(firstToken)} ms` : "") + meta.textContent;
    });
  } catch (err) {
    if (err.name === "AbortError") meta.textContent = "stopped";
    else {
      out.classList.add("error");
      answer.textContent += `\n[${err.message}]`;
    }
  } finally {
    controller = null;
    $("send").hidden = false;
    $("stop").hidden = true;
    if (reply.tool_calls.length === 0) delete reply.tool_calls;
    history.push(reply);
  }
}

$("composer").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("message").value.trim();
  if (!text || controller) return;
  $("message").value = "";
  void send(text);
});
$("message").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) {
    e.preventDefault();
    $("composer").requestSubmit();
  }
});
$("stop").addEventListener("click", () => controller?.abort());
$("clear").addEventListener("click", () => {
  history.length = 0;
  log.textContent = "";
});
$("show-thinking").addEventListener("change", (e) => document.body.classList.toggle("hide-thinking", !e.target.checked));
void init();
