// The chat page of `npm run serve`: sends the conversation to /v1/chat/completions with
// stream: true and draws the server-sent deltas as they arrive: thinking (reasoning_content) in a
// fold that the "show thinking" box hides, the answer (content) rendered as markdown (markdown-it
// with raw HTML off, so nothing the model writes becomes markup), and tool calls as cards. Tool
// calls are executed by the server's calculator (/tools/execute) and sent back as tool messages,
// then the model answers again: lesson 26's loop, visible. Only the last `history rounds` earlier
// exchanges are sent (MiniMind's web demo, scripts/web_demo.py:269, 352), and max_tokens is
// clamped to what the model's context leaves after the prompt (/tokenize).
"use strict";

const $ = (id) => document.getElementById(id);
const log = $("log");
const md = window.markdownit({ html: false, linkify: false, breaks: true });
/** The conversation: { msg (as sent to the API), el (its bubble) }. */
const entries = [];
let modelId = null;
let maxModelLen = Infinity;
let demoTools = [];
let calculatorTool = null;
let controller = null;
let apiKey = sessionStorage.getItem("api-key") ?? "";
/** Tool rounds in a row before the page stops feeding results back. */
const MAX_TOOL_ROUNDS = 3;

const headers = () => ({ "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) });

async function api(path, init = {}) {
  let response = await fetch(path, { ...init, headers: headers() });
  if (response.status === 401) {
    apiKey = window.prompt("This server needs an API key (npm run serve --api-key):") ?? "";
    sessionStorage.setItem("api-key", apiKey);
    response = await fetch(path, { ...init, headers: headers() });
  }
  return response;
}

async function init() {
  try {
    const models = await (await api("/v1/models")).json();
    modelId = models.data[0].id;
    maxModelLen = models.data[0].max_model_len ?? Infinity;
    $("model").textContent = `model: ${modelId}`;
    const settings = await (await fetch("/v1/demo-tools")).json();
    demoTools = settings.tools;
    calculatorTool = settings.calculator;
    $("history-rounds").value = String(settings.history_rounds ?? 0);
    // Not the input's max: a form with a value over it would refuse to submit. Each request is clamped instead.
    if (Number.isFinite(maxModelLen)) $("max-tokens").title = `clamped to what the prompt leaves of the model's ${maxModelLen}-token context`;
  } catch (err) {
    $("model").textContent = `cannot reach the server: ${err.message}`;
  }
}

/** Whether the newest message is kept in view: until the user scrolls up to read, and again once back at the bottom. */
let stick = true;
log.addEventListener("scroll", () => (stick = log.scrollHeight - log.scrollTop - log.clientHeight < 40));
new MutationObserver(() => {
  if (stick) log.scrollTop = log.scrollHeight;
}).observe(log, { subtree: true, childList: true, characterData: true });

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

/** The messages before entry `end` to send: the last `history rounds` earlier exchanges (user message onwards) and the current one. */
function messagesToSend(end) {
  const msgs = entries.slice(0, end).map((e) => e.msg);
  const rounds = Math.max(0, Number($("history-rounds").value) || 0);
  const userAt = msgs.map((m, i) => (m.role === "user" ? i : -1)).filter((i) => i >= 0);
  const from = userAt[Math.max(0, userAt.length - 1 - rounds)] ?? 0;
  return msgs.slice(from);
}

/** The request body, max_tokens clamped to the room the prompt leaves in the context. */
async function requestBody(end) {
  const body = {
    model: modelId,
    messages: messagesToSend(end),
    stream: true,
    stream_options: { include_usage: true },
    temperature: Number($("temperature").value),
    open_thinking: $("open-thinking").checked,
  };
  const tools = [...($("offer-tools").checked ? demoTools : []), ...($("offer-calculator").checked && calculatorTool ? [calculatorTool] : [])];
  if (tools.length > 0) body.tools = tools;
  const wanted = Math.max(1, Number($("max-tokens").value) || 1);
  const counted = await (await fetch("/tokenize", { method: "POST", headers: headers(), body: JSON.stringify(body) })).json();
  const room = (counted.max_model_len ?? maxModelLen) - (counted.count ?? 0);
  if (!(room >= 1)) throw new Error(`the conversation (${counted.count} tokens) leaves no room in the model's context of ${counted.max_model_len} tokens: lower the history rounds or start a new chat`);
  body.max_tokens = Math.min(wanted, room);
  return body;
}

/** One assistant reply to the conversation so far; its tool calls are run and answered, up to MAX_TOOL_ROUNDS times. */
async function reply(toolRound = 0) {
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
  const msg = { role: "assistant", content: "", reasoning_content: "", tool_calls: [] };
  entries.push({ msg, el: out });
  const replyAt = entries.length - 1;
  controller = new AbortController();
  $("send").hidden = true;
  $("stop").hidden = false;
  const started = performance.now();
  let firstToken = null;
  let ok = false;
  try {
    const body = await requestBody(replyAt);
    meta.dataset.maxTokens = String(body.max_tokens);
    const response = await api("/v1/chat/completions", { method: "POST", body: JSON.stringify(body), signal: controller.signal });
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
      if (choice) {
        const d = choice.delta;
        if ((d.reasoning_content || d.content) && firstToken === null) firstToken = performance.now() - started;
        if (d.reasoning_content) {
          if (!thinking.isConnected) out.insertBefore(thinking, answer);
          thought.textContent += d.reasoning_content;
          msg.reasoning_content += d.reasoning_content;
        }
        if (d.content) {
          msg.content += d.content;
          answer.innerHTML = md.render(msg.content).trim();
        }
        for (const call of d.tool_calls ?? []) {
          out.insertBefore(toolCard(call), meta);
          msg.tool_calls.push({ id: call.id, type: "function", function: call.function });
        }
        if (choice.finish_reason) meta.textContent = `finished: ${choice.finish_reason}` + (firstToken !== null ? ` · first token after ${Math.round(firstToken)} ms` : "") + meta.textContent;
      }
    });
    ok = true;
  } catch (err) {
    if (err.name === "AbortError") meta.textContent = "stopped";
    else {
      out.classList.add("error");
      answer.append(`\n[${err.message}]`);
    }
  } finally {
    controller = null;
    $("send").hidden = false;
    $("stop").hidden = true;
    if (msg.tool_calls.length === 0) delete msg.tool_calls;
    else if (msg.content === "") msg.content = null;
    if (!msg.reasoning_content) delete msg.reasoning_content;
    refreshControls();
  }
  if (ok && msg.tool_calls && toolRound < MAX_TOOL_ROUNDS) {
    for (const call of msg.tool_calls) await runTool(call);
    await reply(toolRound + 1);
  }
}

/** Runs one tool call with the server's calculator and adds its result to the conversation as a tool message. */
async function runTool(call) {
  const el = bubble("tool");
  let content;
  try {
    const r = await fetch("/tools/execute", { method: "POST", headers: headers(), body: JSON.stringify({ name: call.function.name, arguments: call.function.arguments }) });
    content = (await r.json()).content ?? '{"error": "tool not found"}';
  } catch (err) {
    content = `{"error": "${err.message}"}`;
  }
  el.textContent = `${call.function.name} → ${content}`;
  entries.push({ msg: { role: "tool", tool_call_id: call.id, content }, el });
}

/** Regenerate on the last reply, edit on the last user message; nothing while a reply streams. */
function refreshControls() {
  for (const b of log.querySelectorAll(".controls")) b.remove();
  if (controller) return;
  const lastUser = entries.map((e) => e.msg.role).lastIndexOf("user");
  if (lastUser < 0) return;
  const add = (el, label, className, onClick) => {
    const bar = document.createElement("div");
    bar.className = "controls";
    const button = document.createElement("button");
    button.type = "button";
    button.className = className;
    button.textContent = label;
    button.addEventListener("click", onClick);
    bar.append(button);
    el.append(bar);
  };
  add(entries[lastUser].el, "edit", "edit", () => {
    $("message").value = entries[lastUser].msg.content;
    truncate(lastUser);
    $("message").focus();
  });
  const last = entries[entries.length - 1];
  if (last.msg.role === "assistant") {
    add(last.el, "regenerate", "regenerate", () => {
      truncate(lastUser + 1);
      void reply();
    });
  }
}

/** Drops entries from `i` on, with their bubbles. */
function truncate(i) {
  for (const e of entries.splice(i)) e.el.remove();
  refreshControls();
}

async function send(text) {
  const el = bubble("user");
  const span = document.createElement("span");
  span.className = "text";
  span.textContent = text;
  el.append(span);
  entries.push({ msg: { role: "user", content: text }, el });
  await reply();
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
$("clear").addEventListener("click", () => truncate(0));
$("show-thinking").addEventListener("change", (e) => document.body.classList.toggle("hide-thinking", !e.target.checked));
void init();
