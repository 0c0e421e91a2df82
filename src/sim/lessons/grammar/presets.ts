/** Tool-call schemas for lesson 07.08's mask widget, each with a valid instance the "model" writes. */

/**
 * How an agent's reply wraps the call when only the tool-call span is constrained (XGrammar's structural tag):
 * free prose first, then a trigger string that hands the text to the schema's grammar until the end tag.
 * `<function=name>{…}</function>` is the example of Grammar.fromStructuralTag's own documentation
 * (@mlc-ai/web-xgrammar 0.1.27, lib/xgrammar.d.ts); `<tool_call>…</tool_call>` is the Hermes / Qwen 2.5 chat
 * template's tool-call wrapper.
 */
export interface ToolCallFrame {
  /** Prose the model writes before it calls the tool (unconstrained under a structural tag). */
  preamble: string;
  /** Text that switches the grammar on: a prefix of `begin`. */
  trigger: string;
  begin: string;
  end: string;
}

export interface SchemaPreset {
  id: string;
  label: string;
  schema: object;
  document: object;
  toolCall: ToolCallFrame;
}

export const SCHEMA_PRESETS: readonly SchemaPreset[] = [
  {
    id: 'get-weather',
    label: 'get_weather (city, unit enum)',
    schema: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
    document: { city: 'Lisbon', unit: 'celsius' },
    toolCall: {
      preamble: 'Let me check the weather in Lisbon.\n',
      trigger: '<function=',
      begin: '<function=get_weather>',
      end: '</function>',
    },
  },
  {
    id: 'run-shell',
    label: 'run_shell (command, timeout, flags)',
    schema: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout_s: { type: 'integer', minimum: 1, maximum: 600 },
        background: { type: 'boolean' },
      },
      required: ['command', 'timeout_s', 'background'],
      additionalProperties: false,
    },
    document: { command: 'grep -rn "TODO" src/', timeout_s: 30, background: false },
    toolCall: {
      preamble: 'I will search the sources for TODO markers.\n',
      trigger: '<function=',
      begin: '<function=run_shell>',
      end: '</function>',
    },
  },
  {
    id: 'tool-choice',
    label: 'one of three tools (anyOf)',
    schema: {
      anyOf: [
        {
          type: 'object',
          properties: {
            name: { const: 'search_web' },
            arguments: {
              type: 'object',
              properties: { query: { type: 'string' } },
              required: ['query'],
              additionalProperties: false,
            },
          },
          required: ['name', 'arguments'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            name: { const: 'read_file' },
            arguments: {
              type: 'object',
              properties: { path: { type: 'string' }, max_lines: { type: 'integer' } },
              required: ['path', 'max_lines'],
              additionalProperties: false,
            },
          },
          required: ['name', 'arguments'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            name: { const: 'finish' },
            arguments: {
              type: 'object',
              properties: { answer: { type: 'string' } },
              required: ['answer'],
              additionalProperties: false,
            },
          },
          required: ['name', 'arguments'],
          additionalProperties: false,
        },
      ],
    },
    document: { name: 'read_file', arguments: { path: 'src/app/main.ts', max_lines: 200 } },
    toolCall: {
      preamble: 'First I need to read the entry point.\n',
      trigger: '<tool_call>',
      begin: '<tool_call>',
      end: '</tool_call>',
    },
  },
];

export function findPreset(id: string): SchemaPreset | undefined {
  return SCHEMA_PRESETS.find((p) => p.id === id);
}
