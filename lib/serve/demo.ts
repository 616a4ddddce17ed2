/**
 * The conversations the course's tiny chat checkpoint (datasets/checkpoints/tiny-chat.safetensors)
 * was trained on, and the one tool it knows. A model of 0.14M parameters cannot learn to chat; this
 * one memorised these few exchanges so that the server, the page and the tests have real model
 * output with a reply, a thinking block and a tool call to show. Other prompts get noise.
 */

/** An OpenAI `tools` entry: the demo's weather lookup. */
export const DEMO_TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

export interface DemoExchange {
  user: string;
  /** Offer DEMO_TOOLS in the prompt. */
  tools: boolean;
  /** The prompt opens a think block (`open_thinking`). */
  thinking: boolean;
  /** What the model learned to answer, up to (not including) <|im_end|>. */
  reply: string;
}

export const DEMO_EXCHANGES: DemoExchange[] = [
  { user: "Hello", tools: false, thinking: false, reply: "Hello! I am a tiny MiniMind model, trained in TypeScript." },
  { user: "Who are you?", tools: false, thinking: false, reply: "A tiny MiniMind, served over an OpenAI-style API." },
  { user: "What is 2 + 3?", tools: false, thinking: false, reply: "The answer is 5." },
  { user: "What is 2 + 3?", tools: false, thinking: true, reply: "Two plus three makes five.\n</think>\n\nThe answer is 5." },
  { user: "What is the weather in Paris?", tools: true, thinking: false, reply: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' },
  { user: "What is the weather in Tokyo?", tools: true, thinking: false, reply: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>' },
];
